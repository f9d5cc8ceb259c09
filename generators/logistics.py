"""Logistics problems (IPC 2000, typed): packages to deliver between locations of several cities.

Cities ``c0 ..``; city ``c`` has locations ``l0-c .. l<k>-c``, of which ``l0-c`` is its airport;
one truck per city (``t<c>``, at a random location of its city), airplanes ``a0 ..`` at random
airports, packages ``p0 ..`` at random locations, each to be delivered to another random
location (Gonzalez-Pumariaga et al., App. A.5.3: "In each city there is exactly one truck, each
city has one location that serves as an airport"). Training: 2-3 cities of 2-3 locations, one airplane, 2-4
packages; evaluation: 3-5 cities of 2-4 locations, 1-2 airplanes, 4-8 packages. ``scale``
multiplies the numbers of cities and packages.
"""

from __future__ import annotations

import random

from genplan.pddl.problem_data import ProblemData

TRAIN_COUNT = 10
EVAL_COUNT = 30


def generate_problem(rng: random.Random, split: str, name: str, scale: int = 1) -> ProblemData:
    """One problem as PDDL text (``split`` is ``"train"`` or ``"eval"``)."""
    if split == "train":
        cities, places, airplanes, packages = rng.randint(2, 3), (2, 3), 1, rng.randint(2, 4)
    else:
        cities = rng.randint(3, 5) * scale
        places, airplanes, packages = (2, 4), rng.randint(1, 2), rng.randint(4, 8) * scale
    objects: dict[str, str] = {}
    init: list[tuple[str, ...]] = []
    locations: list[str] = []
    for city in range(cities):
        objects[f"c{city}"] = "city"
        for index in range(rng.randint(*places)):
            location = f"l{index}-{city}"
            objects[location] = "airport" if index == 0 else "location"
            init.append(("in-city", location, f"c{city}"))
            locations.append(location)
    for city in range(cities):
        objects[f"t{city}"] = "truck"
        city_locations = [loc for loc in locations if loc.endswith(f"-{city}")]
        init.append(("at", f"t{city}", rng.choice(city_locations)))
    airports = [loc for loc in locations if loc.startswith("l0-")]
    for plane in range(airplanes):
        objects[f"a{plane}"] = "airplane"
        init.append(("at", f"a{plane}", rng.choice(airports)))
    goal = []
    for package in range(packages):
        objects[f"p{package}"] = "package"
        start = rng.choice(locations)
        init.append(("at", f"p{package}", start))
        goal.append(("at", f"p{package}", rng.choice([loc for loc in locations if loc != start])))
    return ProblemData(name, "logistics", objects, init, goal, typed=True)
