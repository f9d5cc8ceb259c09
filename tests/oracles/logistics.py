"""Test oracle for logistics: deliver each package alone by truck, airplane and truck."""

from genplan.pddl.problem import Problem


def solve(problem: Problem) -> list[str]:
    types = problem.object_types
    city = {a[1]: a[2] for a in problem.init if a[0] == "in-city"}
    where = {a[1]: a[2] for a in problem.init if a[0] == "at"}
    truck_of = {city[where[t]]: t for t, kind in types.items() if kind == "truck"}
    airport_of = {city[loc]: loc for loc, kind in types.items() if kind == "airport"}
    plane = sorted(p for p, kind in types.items() if kind == "airplane")[0]
    plan: list[str] = []

    def drive(place: str) -> str:
        truck = truck_of[city[place]]
        if where[truck] != place:
            plan.append(f"(drive-truck {truck} {where[truck]} {place} {city[place]})")
            where[truck] = place
        return truck

    def by_truck(package: str, destination: str) -> None:
        if where[package] == destination:
            return
        truck = drive(where[package])
        plan.append(f"(load-truck {package} {truck} {where[package]})")
        drive(destination)
        plan.append(f"(unload-truck {package} {truck} {destination})")
        where[package] = destination

    for _, package, destination in sorted(problem.goal):
        if city[where[package]] != city[destination]:
            by_truck(package, airport_of[city[where[package]]])
            if where[plane] != where[package]:
                plan.append(f"(fly-airplane {plane} {where[plane]} {where[package]})")
            plan.append(f"(load-airplane {package} {plane} {where[package]})")
            target = airport_of[city[destination]]
            plan.append(f"(fly-airplane {plane} {where[package]} {target})")
            plan.append(f"(unload-airplane {package} {plane} {target})")
            where[plane] = where[package] = target
        by_truck(package, destination)
    return plan
