"""itertools, collections, functools, operator, copy, math, statistics, fractions, random, re, string, bisect."""

import bisect
import copy
import functools
import itertools
import math
import operator
import random
import re
import statistics
import string
from collections import ChainMap, Counter, OrderedDict, defaultdict
from fractions import Fraction


@functools.total_ordering
class Version:
    def __init__(self, major, minor):
        self.major = major
        self.minor = minor

    def __eq__(self, other):
        return (self.major, self.minor) == (other.major, other.minor)

    def __lt__(self, other):
        return (self.major, self.minor) < (other.major, other.minor)


class Graph:
    def __init__(self, edges):
        self._edges = defaultdict(list)
        for a, b in edges:
            self._edges[a].append(b)

    @functools.cached_property
    def degree(self):
        return {node: len(targets) for node, targets in self._edges.items()}


def compare(a, b):
    return (len(a) - len(b)) or (a > b) - (a < b)


ATOM = re.compile(r"\((\S+)((?: \S+)*)\)")


def get_plan(objects, init, goal):
    names = sorted(objects)
    pairs = list(itertools.combinations(names, 2))
    counts = Counter(atom[0] for atom in init)
    by_first = defaultdict(set)
    for atom in init:
        by_first[atom[0]].add(atom[1:])
    ordered = OrderedDict((n, i) for i, n in enumerate(names))
    ordered.move_to_end(names[0])
    chain = ChainMap({"a": 1}, {"b": 2})
    keyed = sorted(names, key=functools.cmp_to_key(compare), reverse=True)
    getter = operator.itemgetter(0)
    attr = operator.attrgetter("major")
    call = operator.methodcaller("upper")
    rng = random.Random(7)
    sample = rng.sample(names, 2)
    graph = Graph([("a", "b"), ("a", "c"), ("b", "c")])
    state = {"deep": [1, [2, 3]]}
    clone = copy.deepcopy(state)
    clone["deep"][1].append(4)
    parsed = ATOM.match("(on a b)")
    groups = {k: len(list(g)) for k, g in itertools.groupby(sorted(names, key=len), key=len)}
    return [
        f"(pairs {len(pairs)} {list(itertools.islice(itertools.permutations(names, 2), 2))})",
        f"(counts {counts.most_common(1)} {sorted(by_first)[:2]} {list(ordered)[-1]} {chain['b']})",
        f"(keyed {keyed[:2]} {getter(names)} {attr(Version(3, 1))} {call('x')})",
        f"(math {math.gcd(12, 18)} {math.isqrt(99)} {statistics.median([3, 1, 2])} {Fraction(1, 3) + Fraction(1, 6)})",
        f"(random {sample} {graph.degree['a']} {state['deep']} {clone['deep']})",
        f"(text {parsed.group(1)} {parsed.group(2).split()} {string.ascii_lowercase[:3]} {bisect.bisect_left([1, 3, 5], 4)})",
        f"(more {max(Version(1, 2), Version(1, 10)).minor} {functools.reduce(operator.add, range(5))} {list(itertools.accumulate([1, 2, 3]))})",
        "(fmt {} {name:>3})".format(1, name="x"),
        "(fmt-map {a} {b})".format_map({"a": 1, "b": [2][0]}) + " %s %d" % ("s", 3),  # noqa: UP031
        f"(groups {groups})",
    ]
