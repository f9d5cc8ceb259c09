"""self.__class__.__name__, type(x).__name__, __new__, __getattr__, vars(obj), time's clocks and sys."""

import sys
import time
from sys import maxsize

sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))


class Atom:
    def __new__(cls, *parts):
        return super().__new__(cls)

    def __init__(self, *parts):
        self.parts = parts

    def __repr__(self):
        return f"{self.__class__.__name__}{self.parts}"

    def __eq__(self, other):
        return type(other) is type(self) and vars(self) == vars(other)

    def __hash__(self):
        return hash(tuple(sorted(vars(self).items())))


class Goal(Atom):
    pass


class Lookup:
    def __init__(self, facts):
        self.facts = facts

    def __getattr__(self, name):
        matches = sorted(fact[1:] for fact in self.facts if fact[0] == name)
        if not matches:
            raise AttributeError(name)
        return matches


def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)


def get_plan(objects, init, goal):
    start = time.perf_counter()
    deadline = time.monotonic() + 60
    lookup = Lookup(init)
    atoms = {Atom(*fact) for fact in init} | {Goal(*fact) for fact in goal}
    plan = [
        f"(note {type(atom).__name__.lower()} {'-'.join(atom.parts)})" for atom in sorted(atoms, key=repr)
    ]
    best = maxsize
    for name, *_ in lookup.at:
        best = min(best, len(name))
    plan.append(f"(shortest {best})")
    plan.append(f"(deep {depth(12000)})")
    plan.append(f"(has-free {hasattr(lookup, 'free')} has-none {hasattr(lookup, 'none')})")
    if time.perf_counter() - start > 60 or time.monotonic() > deadline:
        plan.append("(slow)")
    return plan
