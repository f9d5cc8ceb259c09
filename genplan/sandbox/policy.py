"""The sandbox's compile-time policy: what model-written programs may and may not do.

Programs are compiled with RestrictedPython under :class:`GenplanPolicy`, a subclass of its
``RestrictingNodeTransformer``. The policy is *static*: dangerous names and attributes are
rejected when the program is compiled, so the compiled code needs no run-time guard on every
attribute read, subscript or loop (RestrictedPython's default guards cost about 1.9x on
search-heavy code). What remains dynamic is small: a guarded ``__import__`` that hands out
read-only views of an allow-list of pure modules, and ``getattr``/``setattr``/``hasattr``/
``delattr`` that refuse private names.

Rejected: imports outside :data:`ALLOWED_MODULES`; the builtins in :data:`FORBIDDEN_NAMES`
(``open``, ``eval``, ``exec``, ``compile``, ``globals``, ``vars``, ...); dunder attributes other
than the harmless ones in :data:`ALLOWED_DUNDERS` (so ``__class__``, ``__subclasses__``,
``__globals__``, ``__builtins__``, ``__dict__``, ``__code__`` are out) and frame/generator
internals (:data:`FORBIDDEN_ATTRIBUTES`); ``async`` code.

Accepted, although RestrictedPython's default policy rejects some: ``d[k] += 1`` and
``obj.attr += 1``; annotated assignments and ``@dataclass``; names starting with one
underscore; defining ``__init__``, ``__repr__``, ``__eq__``, ``__lt__``, ``__hash__`` and other
ordinary special methods; ``nonlocal``, ``global``, ``match``, f-strings, generators, classes,
lambdas, ``print`` (captured).
"""

from __future__ import annotations

import ast
import builtins
import itertools
import operator
import sys
import types
from collections.abc import Callable
from typing import Any

from RestrictedPython import compile_restricted_exec
from RestrictedPython.transformer import RestrictingNodeTransformer

from genplan.errors import GenplanError

PROGRAM_FILE_NAME = "<genplan-program>"
"""The file name programs are compiled under; tracebacks show it as ``<file-name-omitted>``."""

ALLOWED_MODULES = frozenset(
    {
        "collections",
        "collections.abc",
        "itertools",
        "heapq",
        "math",
        "functools",
        "re",
        "copy",
        "bisect",
        "operator",
        "string",
        "typing",
        "dataclasses",
        "random",
        "enum",
        "statistics",
        "fractions",
    }
)
"""Pure modules a program may import (and ``__future__``)."""

HIDDEN_MODULE_NAMES: dict[str, frozenset[str]] = {
    # typing.get_type_hints evaluates annotation strings with eval().
    "typing": frozenset({"get_type_hints", "ForwardRef", "get_overloads"}),
    # string.Formatter().get_field follows arbitrary attribute paths and returns the objects.
    "string": frozenset({"Formatter"}),
}
"""Public names of allowed modules that are hidden all the same, and why."""

FORBIDDEN_NAMES = frozenset(
    {
        "open",
        "eval",
        "exec",
        "compile",
        "globals",
        "locals",
        "vars",
        "__import__",
        "breakpoint",
        "input",
        "help",
        "exit",
        "quit",
        "memoryview",
        "__builtins__",
        "__loader__",
        "__spec__",
    }
)
"""Names a program may not use unless it defines them itself."""

ALLOWED_DUNDERS = frozenset(
    {
        "__init__",
        "__post_init__",
        "__repr__",
        "__str__",
        "__eq__",
        "__ne__",
        "__lt__",
        "__le__",
        "__gt__",
        "__ge__",
        "__hash__",
        "__len__",
        "__iter__",
        "__next__",
        "__contains__",
        "__getitem__",
        "__setitem__",
        "__delitem__",
        "__bool__",
        "__add__",
        "__sub__",
        "__mul__",
        "__radd__",
        "__call__",
        "__enter__",
        "__exit__",
        "__name__",
        "__doc__",
        "__slots__",
        "__main__",
    }
)
"""Dunder names a program may define, read or call."""

FORBIDDEN_ATTRIBUTES = frozenset(
    {
        "gi_frame",
        "gi_code",
        "gi_yieldfrom",
        "cr_frame",
        "cr_code",
        "cr_await",
        "ag_frame",
        "ag_code",
        "f_globals",
        "f_locals",
        "f_builtins",
        "f_back",
        "f_code",
        "tb_frame",
        "tb_next",
        "func_globals",
        "func_code",
        "co_code",
        "mro",
    }
)
"""Frame, generator and code internals: the ways out of a sandbox that need no dunder."""


class PolicyViolation(GenplanError):
    """A program uses something the sandbox policy forbids.

    Attributes:
        line: the 1-based line of the first violation, or ``None``.
        problems: every violation found, each ``"Line N: ..."``.
    """

    def __init__(self, problems: list[str]):
        self.problems = problems
        first = problems[0] if problems else ""
        self.line = None
        if first.startswith("Line "):
            try:
                self.line = int(first[5:].split(":", 1)[0])
            except ValueError:
                self.line = None
        super().__init__("; ".join(problems))


def _dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__") and len(name) > 4


def name_is_allowed(name: str) -> bool:
    """Whether a variable, function, class or argument may be called ``name``."""
    return not _dunder(name) or name in ALLOWED_DUNDERS


def attribute_is_allowed(name: str) -> bool:
    """Whether ``obj.name`` may be read, written or called."""
    if name in FORBIDDEN_ATTRIBUTES:
        return False
    return not _dunder(name) or name in ALLOWED_DUNDERS


class _BoundNames(ast.NodeVisitor):
    """Every name a program binds (assignments, definitions, arguments, imports)."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self.names.add(node.id)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.names.add(node.name)
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.names.add(node.name)
        self.generic_visit(node)

    def visit_arg(self, node: ast.arg) -> None:
        self.names.add(node.arg)

    def visit_alias(self, node: ast.alias) -> None:
        self.names.add((node.asname or node.name).split(".")[0])


class GenplanPolicy(RestrictingNodeTransformer):
    """RestrictedPython transformer with genplan's static policy (see the module docstring).

    Every check names the line; nodes Python may add in future versions stay rejected by
    RestrictedPython's default ``generic_visit``.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bound_names: set[str] = set()

    # -- names ---------------------------------------------------------------------------
    def check_name(self, node: Any, name: str | None, allow_magic_methods: bool = False) -> None:
        if name is not None and not name_is_allowed(name):
            self.error(node, f'"{name}" is not allowed as a name in this sandbox')

    def visit_Module(self, node: ast.Module) -> ast.AST:
        collector = _BoundNames()
        collector.visit(node)
        self.bound_names = collector.names
        return self.node_contents_visit(node)

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in FORBIDDEN_NAMES and not (node.id in self.bound_names and not _dunder(node.id)):
            self.error(
                node, f'"{node.id}" is not available in this sandbox (no file, eval or introspection access)'
            )
        else:
            self.check_name(node, node.id)
        return self.node_contents_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if not attribute_is_allowed(node.attr):
            self.error(node, f'access to the attribute "{node.attr}" is not allowed in this sandbox')
        return self.node_contents_visit(node)

    # -- imports -------------------------------------------------------------------------
    def _check_module(self, node: ast.AST, module: str | None) -> None:
        if module is None or module == "__future__" or module in ALLOWED_MODULES:
            return
        allowed = ", ".join(sorted(m for m in ALLOWED_MODULES if "." not in m))
        self.error(node, f'importing "{module}" is not allowed in this sandbox; allowed modules: {allowed}')

    def visit_Import(self, node: ast.Import) -> ast.AST:
        for alias in node.names:
            self._check_module(node, alias.name)
            self.check_name(node, alias.asname)
        return self.node_contents_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.AST:
        if node.level:
            self.error(node, "relative imports are not allowed in this sandbox")
        self._check_module(node, node.module)
        for alias in node.names:
            if alias.name == "*":
                self.error(node, '"from ... import *" is not allowed in this sandbox')
            elif not name_is_allowed(alias.name) or alias.name.startswith("_"):
                self.error(node, f'importing "{alias.name}" is not allowed in this sandbox')
            self.check_name(node, alias.asname)
        return self.node_contents_visit(node)

    # -- definitions ---------------------------------------------------------------------
    def _check_arguments(self, node: ast.FunctionDef | ast.Lambda) -> None:
        arguments = node.args
        for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
            self.check_name(node, argument.arg)
        for optional in (arguments.vararg, arguments.kwarg):
            if optional is not None:
                self.check_name(node, optional.arg)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        self.check_name(node, node.name)
        self._check_arguments(node)
        return self.node_contents_visit(node)

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        self._check_arguments(node)
        return self.node_contents_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        self.check_name(node, node.name)
        if any(keyword.arg == "metaclass" for keyword in node.keywords):
            self.error(node, 'the keyword argument "metaclass" is not allowed in this sandbox')
        return self.node_contents_visit(node)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> ast.AST:
        self.check_name(node, node.name)
        return self.node_contents_visit(node)

    # -- plain Python, allowed as it is (no run-time guards) ------------------------------
    def _allow(self, node: ast.AST) -> ast.AST:
        return self.node_contents_visit(node)

    visit_Subscript = _allow
    visit_Call = _allow
    visit_For = _allow
    visit_comprehension = _allow
    visit_Assign = _allow
    visit_AugAssign = _allow
    visit_AnnAssign = _allow
    visit_Delete = _allow
    visit_With = _allow
    visit_withitem = _allow
    visit_Starred = _allow
    visit_Nonlocal = _allow
    visit_Global = _allow
    visit_JoinedStr = _allow
    visit_FormattedValue = _allow
    visit_Match = _allow
    visit_match_case = _allow
    visit_MatchValue = _allow
    visit_MatchSingleton = _allow
    visit_MatchSequence = _allow
    visit_MatchMapping = _allow
    visit_MatchClass = _allow
    visit_MatchStar = _allow
    visit_MatchAs = _allow
    visit_MatchOr = _allow
    visit_arguments = _allow
    visit_arg = _allow
    visit_alias = _allow
    visit_NamedExpr = _allow
    visit_Yield = _allow
    visit_YieldFrom = _allow


def compile_program(source: str) -> types.CodeType:
    """Compile a program under :class:`GenplanPolicy`.

    Args:
        source: Python source defining ``get_plan``.

    Returns:
        A code object to run with the globals of :func:`program_globals`.

    Raises:
        SyntaxError: the source is not valid Python (with the real line and text).
        PolicyViolation: the source uses something the policy forbids (every violation is
            listed, each with its line).
    """
    ast.parse(source, PROGRAM_FILE_NAME)
    result = compile_restricted_exec(source, PROGRAM_FILE_NAME, policy=GenplanPolicy)
    if result.errors:
        raise PolicyViolation(list(result.errors))
    assert result.code is not None
    return result.code


# -- run-time side: builtins and module views ---------------------------------------------


def _checked_name(name: object) -> str:
    if not isinstance(name, str):
        raise TypeError("attribute name must be a string")
    if not attribute_is_allowed(name):
        raise AttributeError(f'access to the attribute "{name}" is not allowed in this sandbox')
    return name


def _safe_getattr(obj: object, name: str, *default: object) -> object:
    return getattr(obj, _checked_name(name), *default)


def _safe_hasattr(obj: object, name: str) -> bool:
    return hasattr(obj, _checked_name(name))


def _safe_setattr(obj: object, name: str, value: object) -> None:
    if isinstance(obj, types.ModuleType):
        raise AttributeError("modules are read-only in this sandbox")
    setattr(obj, _checked_name(name), value)


def _safe_delattr(obj: object, name: str) -> None:
    if isinstance(obj, types.ModuleType):
        raise AttributeError("modules are read-only in this sandbox")
    delattr(obj, _checked_name(name))


def _safe_attrgetter(*names: str) -> Callable[[object], object]:
    for name in names:
        for part in name.split("."):
            _checked_name(part)
    return operator.attrgetter(*names)


def _safe_methodcaller(name: str, *args: object, **kwargs: object) -> Callable[[object], object]:
    return operator.methodcaller(_checked_name(name), *args, **kwargs)


_REPLACEMENTS: dict[str, dict[str, object]] = {
    "operator": {"attrgetter": _safe_attrgetter, "methodcaller": _safe_methodcaller},
}


def _module_view(name: str, cache: dict[str, types.ModuleType]) -> types.ModuleType:
    """A read-only-by-policy copy of module ``name`` with only its public, harmless names."""
    if name in cache:
        return cache[name]
    import importlib

    module = importlib.import_module(name)
    view = types.ModuleType(name, getattr(module, "__doc__", None))
    cache[name] = view
    hidden = HIDDEN_MODULE_NAMES.get(name, frozenset())
    for attribute in dir(module):
        if attribute.startswith("_") or attribute in hidden:
            continue
        value = getattr(module, attribute)
        if isinstance(value, types.ModuleType):
            full = value.__name__
            if full in ALLOWED_MODULES:
                setattr(view, attribute, _module_view(full, cache))
            continue
        setattr(view, attribute, _REPLACEMENTS.get(name, {}).get(attribute, value))
    for submodule in ALLOWED_MODULES:
        if submodule.startswith(name + "."):
            setattr(view, submodule[len(name) + 1 :], _module_view(submodule, cache))
    return view


def _make_import(cache: dict[str, types.ModuleType]) -> Callable[..., types.ModuleType]:
    def guarded_import(
        name: str,
        globals: object = None,
        locals: object = None,
        fromlist: tuple[str, ...] = (),
        level: int = 0,
    ) -> types.ModuleType:
        if level != 0:
            raise ImportError("relative imports are not allowed in this sandbox")
        if name == "__future__":
            import __future__

            return __future__
        if name not in ALLOWED_MODULES:
            raise ImportError(f'importing "{name}" is not allowed in this sandbox')
        if fromlist:
            return _module_view(name, cache)
        return _module_view(name.split(".")[0], cache)

    return guarded_import


SAFE_BUILTIN_NAMES = [
    "abs",
    "all",
    "any",
    "ascii",
    "bin",
    "bool",
    "bytearray",
    "bytes",
    "callable",
    "chr",
    "classmethod",
    "complex",
    "dict",
    "dir",
    "divmod",
    "enumerate",
    "filter",
    "float",
    "format",
    "frozenset",
    "hash",
    "hex",
    "id",
    "int",
    "isinstance",
    "issubclass",
    "iter",
    "len",
    "list",
    "map",
    "max",
    "min",
    "next",
    "object",
    "oct",
    "ord",
    "pow",
    "print",
    "property",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "slice",
    "sorted",
    "staticmethod",
    "str",
    "sum",
    "super",
    "tuple",
    "type",
    "zip",
    "NotImplemented",
    "Ellipsis",
    "True",
    "False",
    "None",
    "BaseException",
    "Exception",
    "ArithmeticError",
    "AssertionError",
    "AttributeError",
    "IndexError",
    "KeyError",
    "LookupError",
    "NameError",
    "NotImplementedError",
    "OverflowError",
    "RecursionError",
    "RuntimeError",
    "StopIteration",
    "TypeError",
    "ValueError",
    "ZeroDivisionError",
    "MemoryError",
    "KeyboardInterrupt",
    "UnboundLocalError",
    "ImportError",
]


_program_counter = itertools.count()


def new_program_module() -> types.ModuleType:
    """A fresh module to run a compiled program in: safe builtins and the guarded import.

    The module is registered in ``sys.modules`` under a unique name so that library code that
    looks a class's module up (``@dataclass`` does) finds it. ``__name__`` is not
    ``"__main__"``, so a program's ``if __name__ == "__main__":`` block does not run.
    """
    cache: dict[str, types.ModuleType] = {}
    safe = {name: getattr(builtins, name) for name in SAFE_BUILTIN_NAMES}
    safe.update(
        {
            "__build_class__": builtins.__build_class__,
            "__import__": _make_import(cache),
            "getattr": _safe_getattr,
            "hasattr": _safe_hasattr,
            "setattr": _safe_setattr,
            "delattr": _safe_delattr,
        }
    )
    name = f"genplan_program_{next(_program_counter)}"
    module = types.ModuleType(name)
    module.__dict__.update({"__builtins__": safe, "__metaclass__": type})
    sys.modules[name] = module
    return module
