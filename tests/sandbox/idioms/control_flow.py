"""Generators, comprehensions, match, walrus, exceptions, closures, decorators, globals, printing."""

import functools

LIMIT = 5
_calls = 0


class PlanningError(Exception):
    """A custom exception, raised and caught."""


def counted(function):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        global _calls
        _calls += 1
        return function(*args, **kwargs)

    return wrapper


@counted
def evens(limit):
    yield from (n for n in range(limit) if n % 2 == 0)


def make_counter():
    count = 0

    def step():
        nonlocal count
        count += 1
        return count

    return step


def classify(atom):
    match atom:
        case ("at", obj, place):
            return f"{obj}@{place}"
        case ("free", _):
            return "free"
        case (name, *rest) if len(rest) > 2:
            return f"{name}/{len(rest)}"
        case _:
            return "other"


def risky(n):
    try:
        if n > 2:
            raise PlanningError(f"too big: {n}")
        return n
    except PlanningError as error:
        raise ValueError(str(error)) from error
    finally:
        pass


def get_plan(objects, init, goal):
    counter = make_counter()
    squares = {n: n * n for n in evens(LIMIT)}
    kinds = sorted({classify(atom) for atom in init})
    errors = []
    for n in range(4):
        try:
            risky(n)
        except ValueError as error:
            errors.append(type(error).__name__)
    if (total := sum(squares.values())) > 10:
        print("debug:", total)
    counter()
    nested = [[i * j for j in range(3)] for i in range(3)]
    flags = any(x > 3 for row in nested for x in row), all(isinstance(x, int) for x in squares)
    result = [f"(squares {squares})", f"(kinds {kinds[:3]})", f"(errors {errors})"]
    result += [f"(misc {total} {counter()} {nested[2]} {flags} {_calls} {evens.__name__})"]
    if __name__ == "__main__":
        result.append("(main)")
    return result
