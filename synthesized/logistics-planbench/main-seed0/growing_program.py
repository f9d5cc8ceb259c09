# ---- answer 1 ----
from collections import defaultdict


def get_plan(objects, init, goal):
    trucks, airplanes, airports = set(), set(), set()
    city_of = {}   # location -> city
    pos = {}       # package / vehicle -> location
    inside = {}    # package -> vehicle it is in

    # ---------- read the initial state ----------
    for atom in init:
        pred, args = atom[0], atom[1:]
        if pred == 'truck':
            trucks.add(args[0])
        elif pred == 'airplane':
            airplanes.add(args[0])
        elif pred == 'airport':
            airports.add(args[0])
        elif pred == 'in-city':
            city_of[args[0]] = args[1]
        elif pred == 'at':
            pos[args[0]] = args[1]
        elif pred == 'in':
            inside[args[0]] = args[1]

    # Airports of each city, and trucks of each city (from where they stand).
    airports_in = defaultdict(list)
    for a in sorted(airports):
        if a in city_of:
            airports_in[city_of[a]].append(a)
    trucks_in = defaultdict(list)
    for t in sorted(trucks):
        if t in pos and pos[t] in city_of:
            trucks_in[city_of[pos[t]]].append(t)
    planes = sorted(a for a in airplanes if a in pos)

    # ---------- goals ----------
    pkg_goal = {}
    vehicle_goal = {}
    for atom in goal:
        if atom[0] == 'at' and len(atom) == 3:
            x, loc = atom[1], atom[2]
            if x in trucks or x in airplanes:
                vehicle_goal[x] = loc
            else:
                pkg_goal[x] = loc

    plan = []

    # ---------- helpers ----------
    def pick(vehicles, loc):
        """Prefer a vehicle already at loc, otherwise take the first one."""
        for v in vehicles:
            if pos[v] == loc:
                return v
        return vehicles[0] if vehicles else None

    def drive(t, to):
        frm = pos[t]
        if frm != to:
            plan.append('(drive-truck %s %s %s %s)' % (t, frm, to, city_of[to]))
            pos[t] = to

    def fly(a, to):
        frm = pos[a]
        if frm != to:
            plan.append('(fly-airplane %s %s %s)' % (a, frm, to))
            pos[a] = to

    def truck_leg(p, frm, to):
        t = pick(trucks_in[city_of[frm]], frm)
        if t is None:
            return False
        drive(t, frm)
        plan.append('(load-truck %s %s %s)' % (p, t, frm))
        drive(t, to)
        plan.append('(unload-truck %s %s %s)' % (p, t, to))
        pos[p] = to
        return True

    def air_leg(p, frm, to):
        a = pick(planes, frm)
        if a is None:
            return False
        fly(a, frm)
        plan.append('(load-airplane %s %s %s)' % (p, a, frm))
        fly(a, to)
        plan.append('(unload-airplane %s %s %s)' % (p, a, to))
        pos[p] = to
        return True

    # ---------- deliver the packages one at a time ----------
    for p in sorted(pkg_goal):
        d = pkg_goal[p]

        # A package that starts inside a vehicle is first unloaded where the vehicle stands.
        if p in inside:
            v = inside.pop(p)
            loc = pos[v]
            if v in trucks:
                plan.append('(unload-truck %s %s %s)' % (p, v, loc))
            else:
                plan.append('(unload-airplane %s %s %s)' % (p, v, loc))
            pos[p] = loc

        o = pos.get(p)
        if o is None or o == d:
            continue

        c_o, c_d = city_of[o], city_of[d]

        # 1. Same city: a single truck trip.
        if c_o == c_d and trucks_in[c_o]:
            truck_leg(p, o, d)
            continue

        # 2. Different cities: truck -> airplane -> truck, skipping unneeded legs.
        a_o = o if o in airports else (airports_in[c_o][0] if airports_in[c_o] else None)
        a_d = d if d in airports else (airports_in[c_d][0] if airports_in[c_d] else None)
        if a_o is None or a_d is None:
            continue  # unsolvable for this package: a city without an airport

        if o != a_o:
            truck_leg(p, o, a_o)
        if a_o != a_d:
            air_leg(p, a_o, a_d)
        if a_d != d:
            truck_leg(p, a_d, d)

    # ---------- goals on vehicles themselves (rare) ----------
    for v in sorted(vehicle_goal):
        loc = vehicle_goal[v]
        if v in trucks and city_of.get(pos.get(v)) == city_of.get(loc):
            drive(v, loc)
        elif v in airplanes and loc in airports:
            fly(v, loc)

    return plan
