"""Classes with special methods, used in sets, dicts, sorting and heaps; inheritance; slots."""

import heapq


class Location:
    __slots__ = ("name", "row")

    def __init__(self, name, row):
        self.name = name
        self.row = row

    def __eq__(self, other):
        return isinstance(other, Location) and self.name == other.name

    def __hash__(self):
        return hash(self.name)

    def __lt__(self, other):
        return (self.row, self.name) < (other.row, other.name)

    def __repr__(self):
        return f"Location({self.name!r}, {self.row})"


class Vehicle:
    kind = "vehicle"

    def __init__(self, at):
        self.at = at
        self._moves = 0

    def move(self, where):
        self._moves += 1
        self.at = where

    @property
    def moves(self):
        return self._moves

    @staticmethod
    def action(name, *args):
        return "(" + " ".join([name, *args]) + ")"

    @classmethod
    def parked(cls, at):
        vehicle = cls(at)
        vehicle._moves = 0
        return vehicle

    def describe(self):
        raise NotImplementedError


class Truck(Vehicle):
    kind = "truck"

    def __init__(self, at, capacity=2):
        super().__init__(at)
        self.capacity = capacity

    def describe(self):
        return f"{self.kind}@{self.at.name}"


def get_plan(objects, init, goal):
    places = sorted({Location(name, i % 3) for i, name in enumerate(sorted(objects))})
    seen = {place: index for index, place in enumerate(places)}
    heap = list(places)
    heapq.heapify(heap)
    truck = Truck.parked(heapq.heappop(heap))
    plan = []
    while heap:
        where = heapq.heappop(heap)
        plan.append(Vehicle.action("drive", truck.at.name, where.name))
        truck.move(where)
    plan.append(f"(moves {truck.moves} {len(seen)} {truck.describe()})")
    return plan
