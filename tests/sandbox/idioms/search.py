"""Searches: BFS with deque and queue, A* with heapq and a counter, DFS by recursion, memoization."""

import heapq
import itertools
import queue
from collections import deque
from functools import cache


def neighbours(cell, size):
    row, col = cell
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        r, c = row + dr, col + dc
        if 0 <= r < size and 0 <= c < size and (r * 7 + c) % 5 != 0:
            yield (r, c)


def bfs(start, goal, size):
    parent = {start: None}
    frontier = deque([start])
    while frontier:
        cell = frontier.popleft()
        if cell == goal:
            break
        for nxt in neighbours(cell, size):
            if nxt not in parent:
                parent[nxt] = cell
                frontier.append(nxt)
    path = []
    cell = goal
    while cell is not None:
        path.append(cell)
        cell = parent.get(cell)
    return path[::-1]


def astar(start, goal, size):
    counter = itertools.count()
    heap = [(0, next(counter), start, None)]
    came = {}
    cost = {start: 0}
    while heap:
        _f, _n, cell, before = heapq.heappop(heap)
        if cell in came:
            continue
        came[cell] = before
        if cell == goal:
            break
        for nxt in neighbours(cell, size):
            new = cost[cell] + 1
            if new < cost.get(nxt, float("inf")):
                cost[nxt] = new
                h = abs(nxt[0] - goal[0]) + abs(nxt[1] - goal[1])
                heapq.heappush(heap, (new + h, next(counter), nxt, cell))
    return cost.get(goal)


def queue_bfs(start, size):
    q = queue.Queue()
    q.put(start)
    seen = {start}
    while not q.empty():
        cell = q.get()
        for nxt in neighbours(cell, size):
            if nxt not in seen:
                seen.add(nxt)
                q.put(nxt)
    pq = queue.PriorityQueue()
    for cell in list(seen)[:5]:
        pq.put((cell[0] + cell[1], cell))
    return len(seen), pq.get()[0]


@cache
def paths(n, k):
    if n == 0 or k == 0:
        return 1
    return paths(n - 1, k) + paths(n, k - 1)


def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)


def get_plan(objects, init, goal):
    size = 12
    path = bfs((1, 1), (size - 2, size - 2), size)
    return [
        f"(bfs {len(path)})",
        f"(astar {astar((1, 1), (size - 2, size - 2), size)})",
        f"(queue {queue_bfs((1, 1), size)})",
        f"(memo {paths(60, 60) % 1000003})",
        f"(recursion {depth(900)})",
    ]
