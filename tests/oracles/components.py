"""Test oracles for AutoToS: correct search components for the built-in domains.

Each is the source a model would write, ``successor_states(state, objects)`` with the exact
PDDL semantics of its domain (self-loops left out), and one ``is_goal``. They are test code
only: the fake model answers with them to check that the protocol passes correct components
with two calls, and that BFS over them solves small problems and runs out of time on large
ones. Nothing here is used by genplan itself.
"""

from __future__ import annotations

GOAL = """
def is_goal(state, goal):
    return goal <= state
"""

SUCCESSORS: dict[str, str] = {}

SUCCESSORS["gripper"] = """
def successor_states(state, objects):
    def of(predicate):
        return [atom[1:] for atom in state if atom[0] == predicate]

    rooms = {r for (r,) in of("room")}
    balls = {b for (b,) in of("ball")}
    grippers = {g for (g,) in of("gripper")}
    successors = []
    for (here,) in of("at-robby"):
        if here not in rooms:
            continue
        for there in rooms:
            if there != here:
                new = set(state)
                new.discard(("at-robby", here))
                new.add(("at-robby", there))
                successors.append(new)
        for ball, room in of("at"):
            if room != here or ball not in balls:
                continue
            for (gripper,) in of("free"):
                if gripper in grippers:
                    new = set(state)
                    new -= {("at", ball, here), ("free", gripper)}
                    new.add(("carry", ball, gripper))
                    successors.append(new)
        for ball, gripper in of("carry"):
            if ball in balls and gripper in grippers:
                new = set(state)
                new.discard(("carry", ball, gripper))
                new |= {("at", ball, here), ("free", gripper)}
                successors.append(new)
    return successors
"""

SUCCESSORS["ferry"] = """
def successor_states(state, objects):
    def of(predicate):
        return [atom[1:] for atom in state if atom[0] == predicate]

    locations = {l for (l,) in of("location")}
    cars = {c for (c,) in of("car")}
    successors = []
    for (here,) in of("at-ferry"):
        if here not in locations:
            continue
        for there in locations:
            if ("not-eq", here, there) in state:
                new = set(state)
                new.discard(("at-ferry", here))
                new.add(("at-ferry", there))
                successors.append(new)
        if ("empty-ferry",) in state:
            for car, where in of("at"):
                if where == here and car in cars:
                    new = set(state)
                    new -= {("at", car, here), ("empty-ferry",)}
                    new.add(("on", car))
                    successors.append(new)
        for (car,) in of("on"):
            if car in cars:
                new = set(state)
                new.discard(("on", car))
                new |= {("at", car, here), ("empty-ferry",)}
                successors.append(new)
    return successors
"""

SUCCESSORS["forest"] = """
def successor_states(state, objects):
    successors = []
    for atom in state:
        if atom[0] != "at" or ("iswater", atom[1]) in state:
            continue
        here = atom[1]
        for fact in state:
            if fact[0] == "adjacent" and fact[1] == here and fact[2] != here:
                new = set(state)
                new.discard(("at", here))
                new.add(("at", fact[2]))
                successors.append(new)
    return successors
"""

SUCCESSORS["heavy"] = """
def successor_states(state, objects):
    successors = []
    if ("box-empty",) in state:
        for item in objects:
            new = set(state)
            new -= {("box-empty",), ("unpacked", item)}
            new |= {("packed", item), ("nothing-above", item)}
            if new != state:
                successors.append(new)
    for atom in state:
        if atom[0] != "packed" or ("nothing-above", atom[1]) not in state:
            continue
        bottom = atom[1]
        for fact in state:
            if fact[0] == "heavier" and fact[1] == bottom and ("unpacked", fact[2]) in state:
                top = fact[2]
                new = set(state)
                new -= {("nothing-above", bottom), ("unpacked", top)}
                new |= {("packed", top), ("nothing-above", top)}
                successors.append(new)
    return successors
"""

SUCCESSORS["miconic"] = """
def successor_states(state, objects):
    successors = []
    for atom in state:
        if atom[0] != "lift-at":
            continue
        here = atom[1]
        for fact in state:
            if fact[0] == "origin" and fact[2] == here and ("boarded", fact[1]) not in state:
                new = set(state)
                new.add(("boarded", fact[1]))
                successors.append(new)
            elif fact[0] == "destin" and fact[2] == here and ("boarded", fact[1]) in state:
                new = set(state)
                new.discard(("boarded", fact[1]))
                new.add(("served", fact[1]))
                successors.append(new)
            elif fact[0] == "above" and here in fact[1:] and fact[1] != fact[2]:
                there = fact[2] if fact[1] == here else fact[1]
                new = set(state)
                new.discard(("lift-at", here))
                new.add(("lift-at", there))
                successors.append(new)
    return successors
"""

SUCCESSORS["spanner"] = """
def successor_states(state, objects):
    kind = dict(objects)
    successors = []
    for atom in state:
        if atom[0] != "at" or kind.get(atom[1]) != "man":
            continue
        man, here = atom[1], atom[2]
        for fact in state:
            if fact[0] == "link" and fact[1] == here:
                new = set(state)
                new.discard(("at", man, here))
                new.add(("at", man, fact[2]))
                successors.append(new)
            elif fact[0] == "at" and fact[2] == here and kind.get(fact[1]) == "spanner":
                new = set(state)
                new.discard(fact)
                new.add(("carrying", man, fact[1]))
                successors.append(new)
            elif fact[0] == "at" and fact[2] == here and kind.get(fact[1]) == "nut" and ("loose", fact[1]) in state:
                for held in state:
                    if held[0] == "carrying" and held[1] == man and ("useable", held[2]) in state:
                        new = set(state)
                        new -= {("loose", fact[1]), ("useable", held[2])}
                        new.add(("tightened", fact[1]))
                        successors.append(new)
    return successors
"""

SUCCESSORS["delivery"] = """
def successor_states(state, objects):
    locations = [name for name, kind in objects if kind == "loc"]
    papers = [name for name, kind in objects if kind == "paper"]
    successors = []
    for atom in state:
        if atom[0] != "at":
            continue
        here = atom[1]
        if ("ishomebase", here) in state:
            for paper in papers:
                if ("unpacked", paper) in state:
                    new = set(state)
                    new.discard(("unpacked", paper))
                    new.add(("carrying", paper))
                    successors.append(new)
        if ("safe", here) in state:
            for there in locations:
                if there != here:
                    new = set(state)
                    new.discard(("at", here))
                    new.add(("at", there))
                    successors.append(new)
        for paper in papers:
            if ("carrying", paper) in state:
                new = set(state)
                new -= {("carrying", paper), ("wantspaper", here)}
                new.add(("satisfied", here))
                successors.append(new)
    return successors
"""

SUCCESSORS["blocksworld"] = """
def successor_states(state, objects):
    clear = {atom[1] for atom in state if atom[0] == "clear"}
    held = [atom[1] for atom in state if atom[0] == "holding"]
    successors = []
    if ("handempty",) in state:
        for block in clear:
            if ("ontable", block) in state:
                new = set(state)
                new -= {("clear", block), ("ontable", block), ("handempty",)}
                new.add(("holding", block))
                successors.append(new)
        for atom in state:
            if atom[0] == "on" and atom[1] in clear:
                new = set(state)
                new -= {atom, ("clear", atom[1]), ("handempty",)}
                new |= {("holding", atom[1]), ("clear", atom[2])}
                successors.append(new)
    for block in held:
        new = set(state)
        new.discard(("holding", block))
        new |= {("clear", block), ("handempty",), ("ontable", block)}
        successors.append(new)
        for under in clear:
            new = set(state)
            new -= {("clear", under), ("holding", block)}
            new |= {("handempty",), ("clear", block), ("on", block, under)}
            if new != state:
                successors.append(new)
    return successors
"""

SUCCESSORS["logistics"] = """
def successor_states(state, objects):
    kind = dict(objects)
    city_of = {}
    for atom in state:
        if atom[0] == "in-city":
            city_of.setdefault(atom[1], set()).add(atom[2])
    places = [name for name, k in objects if k in ("airport", "location")]
    airports = [name for name, k in objects if k == "airport"]
    where = {atom[1]: atom[2] for atom in state if atom[0] == "at"}
    successors = []
    for vehicle, here in where.items():
        if kind.get(vehicle) not in ("truck", "airplane"):
            continue
        for package, place in where.items():
            if kind.get(package) == "package" and place == here:
                new = set(state)
                new.discard(("at", package, here))
                new.add(("in", package, vehicle))
                successors.append(new)
        for atom in state:
            if atom[0] == "in" and atom[2] == vehicle:
                new = set(state)
                new.discard(atom)
                new.add(("at", atom[1], here))
                successors.append(new)
        if kind[vehicle] == "truck":
            targets = [p for p in places if p != here and city_of.get(p, set()) & city_of.get(here, set())]
        else:
            targets = [p for p in airports if p != here] if kind.get(here) == "airport" else []
        for there in targets:
            new = set(state)
            new.discard(("at", vehicle, here))
            new.add(("at", vehicle, there))
            successors.append(new)
    return successors
"""
