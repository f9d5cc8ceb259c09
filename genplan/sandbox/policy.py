"""The sandbox's compile-time policy: what model-written programs may and may not do.

Programs are compiled with RestrictedPython under :class:`GenplanPolicy`, a subclass of its
``RestrictingNodeTransformer``. The policy is mostly *static*: dangerous names and attributes
are rejected when the program is compiled, so the compiled code needs no run-time guard on every
attribute read, subscript or loop (RestrictedPython's default guards cost about 1.9x on
search-heavy code). A few kinds of expression are compiled into calls of run-time guards (see
:mod:`genplan.sandbox.runtime`): private attributes (``obj._name``) and ``obj.__getattr__``,
``x.format`` and ``x.format_map``, and ``obj.__class__`` (read as ``type(obj)``).

Rejected: imports outside :data:`ALLOWED_MODULES` (and of ``time`` and ``sys`` all but the names
in :data:`PARTIAL_MODULES`); the builtins in :data:`FORBIDDEN_NAMES` (``open``, ``eval``,
``exec``, ``compile``, ``globals``, ...) and ``vars()`` without an argument; dunder attributes
other than the harmless ones in :data:`ALLOWED_DUNDERS` (so ``__subclasses__``, ``__globals__``,
``__builtins__``, ``__dict__``, ``__code__`` are out) and frame/generator internals
(:data:`FORBIDDEN_ATTRIBUTES`); reading a private attribute (``obj._name``) whose name the
program never defines (``random._os``, ``ref._evaluate``); assigning ``__name__`` or
``__class__``; ``type(name, bases, dict)``; ``async`` code.

Accepted, although RestrictedPython's default policy rejects some: ``d[k] += 1`` and
``obj.attr += 1``; annotated assignments and ``@dataclass``; names starting with one
underscore and the program's own private attributes (``self._cache``); defining ``__init__``,
``__new__``, ``__getattr__``, ``__repr__``, ``__eq__``, ``__lt__``, ``__hash__`` and other
ordinary special methods; ``self.__class__.__name__``; ``vars(obj)`` of its own objects (a
run-time guard refuses any other); ``import time`` (the clocks) and ``import sys`` (``maxsize``
and the recursion limit); ``nonlocal``, ``global``, ``match``, f-strings, generators, classes,
lambdas, ``print`` (captured).
"""

from __future__ import annotations

import ast
import types
from typing import Any

from RestrictedPython import compile_restricted_exec
from RestrictedPython.transformer import RestrictingNodeTransformer, copy_locations

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
        "queue",
        "time",
        "sys",
    }
)
"""Modules a program may import (and ``__future__``): pure ones whole, and the few names of
:data:`PARTIAL_MODULES` of the others."""

PARTIAL_MODULES: dict[str, frozenset[str]] = {
    "time": frozenset(
        {
            "time",
            "time_ns",
            "perf_counter",
            "perf_counter_ns",
            "monotonic",
            "monotonic_ns",
            "process_time",
            "process_time_ns",
        }
    ),
    "sys": frozenset({"maxsize", "getrecursionlimit", "setrecursionlimit"}),
}
"""Modules a program gets only a few names of: the clocks of ``time`` (no ``sleep``, nothing
that reaches the operating system beyond the clock) and of ``sys`` the recursion limit and
``maxsize`` (no ``modules``, ``exit``, ``stdout``, ...). Other modules never hand them out
(``typing.sys`` stays refused): a program gets them by importing them."""

FORBIDDEN_NAMES = frozenset(
    {
        "open",
        "eval",
        "exec",
        "compile",
        "globals",
        "locals",
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
    [
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
        "__reversed__",
        "__contains__",
        "__getitem__",
        "__setitem__",
        "__delitem__",
        "__missing__",
        "__bool__",
        "__call__",
        "__enter__",
        "__exit__",
        "__name__",
        "__doc__",
        "__slots__",
        "__main__",
        "__add__",
        "__sub__",
        "__mul__",
        "__truediv__",
        "__floordiv__",
        "__mod__",
        "__pow__",
        "__neg__",
        "__pos__",
        "__abs__",
        "__radd__",
        "__rsub__",
        "__rmul__",
        "__iadd__",
        "__isub__",
        "__and__",
        "__or__",
        "__xor__",
        "__invert__",
        "__index__",
        "__int__",
        "__float__",
        "__copy__",
        "__deepcopy__",
        "__new__",
        "__getattr__",
    ]
)
"""Dunder names a program may define, read or call (those of :data:`OWN_ONLY_DUNDERS` read
only where they resolve on the program's own classes)."""

OWN_ONLY_DUNDERS = frozenset({"__getattr__"})
"""Dunders a program may define but read or assign only as it may a private attribute: where
they resolve on its own classes. A library's ``__getattr__`` (``typing``'s generic aliases
have one) takes the attribute name as a string and would pass it by every check."""

METHOD_ONLY_NAMES = frozenset({"__getattr__"})
"""Dunders a program may bind only as a method defined in a class body: a module-level
``__getattr__`` would answer for the program's module, which (in trusted mode) any code of the
caller's process that looks through ``sys.modules`` may probe."""

CLASS_ATTRIBUTE = "__class__"
"""``obj.__class__`` is read as ``type(obj)`` under the sandbox's ``type`` (never a metaclass);
it may not be assigned, named in a class pattern or given to ``getattr``."""

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

FORMAT_METHODS = frozenset({"format", "format_map"})
"""String methods that follow attribute paths written inside the string (guarded at run time)."""

LIBRARY_PRIVATE_API = frozenset({"_replace", "_asdict", "_fields", "_make", "_field_defaults"})
"""Private-looking names that are a library's public API (named tuples): the static check lets
them through; at run time they work on the program's own named tuples only."""

UNASSIGNABLE_NAMES = frozenset({"__name__"})
"""Readable dunders a program may not assign: library code takes a class's or function's module
from them (``__module__`` and ``__qualname__`` are not allowed at all)."""


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


def is_dunder(name: str) -> bool:
    """Whether ``name`` is a dunder (``__class__``): two underscores on each side of a word."""
    return name.startswith("__") and name.endswith("__") and len(name) > 4


def name_is_allowed(name: str) -> bool:
    """Whether a variable, function, class or argument may be called ``name``."""
    return not is_dunder(name) or name in ALLOWED_DUNDERS


def attribute_is_allowed(name: str) -> bool:
    """Whether ``obj.name`` may be read, written or called (private names are checked apart)."""
    if name in FORBIDDEN_ATTRIBUTES:
        return False
    return not is_dunder(name) or name in ALLOWED_DUNDERS


def is_private(name: str) -> bool:
    """Whether ``name`` is private: one leading underscore (``_cache``), not a dunder."""
    return name.startswith("_") and not is_dunder(name) and name != "_"


def needs_owner(name: str) -> bool:
    """Whether ``obj.name`` is allowed only where ``name`` resolves on the program's own class
    (a private attribute, or a dunder of :data:`OWN_ONLY_DUNDERS`)."""
    return is_private(name) or name in OWN_ONLY_DUNDERS


class _ClassPrivateNames(ast.NodeTransformer):
    """Mangles ``obj.__name`` inside a class body to ``obj._Class__name``, as CPython's compiler would.

    It runs before the policy so that the private-attribute guards see (and look up) the name
    the attribute really has; CPython leaves the already-mangled name alone.
    """

    def __init__(self) -> None:
        self.classes: list[str] = []

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        for child in [*node.decorator_list, *node.bases, *node.keywords]:
            self.visit(child)
        self.classes.append(node.name)
        node.body = [self.visit(statement) for statement in node.body]
        self.classes.pop()
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        owner = self.classes[-1].lstrip("_") if self.classes else ""
        if owner and node.attr.startswith("__") and not node.attr.endswith("__"):
            node.attr = f"_{owner}{node.attr}"
        return node


class _OwnAttributes(ast.NodeVisitor):
    """Private attribute names a program defines itself.

    Those assigned or deleted as attributes (``self._cache = {}``), defined in a class body
    (``def _helper``, ``_count = 0``, ``_field: int``), named in ``__slots__`` or given to
    ``setattr`` as a literal.
    """

    def __init__(self) -> None:
        self.names: set[str] = set()

    def _add(self, name: object) -> None:
        if isinstance(name, str) and is_private(name):
            self.names.add(name)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self._add(node.attr)
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for statement in node.body:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self._add(statement.name)
            targets: list[ast.expr] = []
            if isinstance(statement, ast.Assign):
                targets = statement.targets
            elif isinstance(statement, (ast.AnnAssign, ast.AugAssign)):
                targets = [statement.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        self._add(name.id)
                        if name.id == "__slots__" and isinstance(statement, ast.Assign):
                            for item in ast.walk(statement.value):
                                if isinstance(item, ast.Constant):
                                    self._add(item.value)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Name) and node.func.id == "setattr" and len(node.args) >= 2:
            second = node.args[1]
            if isinstance(second, ast.Constant):
                self._add(second.value)
        self.generic_visit(node)


def _call(function: str, node: ast.expr, *arguments: ast.expr) -> ast.Call:
    call = ast.Call(func=ast.Name(function, ast.Load()), args=list(arguments), keywords=[])
    copy_locations(call, node)
    copy_locations(call.func, node)
    for argument in arguments:
        if not hasattr(argument, "lineno"):
            copy_locations(argument, node)
    return call


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
        self.own_private: set[str] = set()
        self.methods: set[int] = set()

    # -- names ---------------------------------------------------------------------------
    def check_name(self, node: Any, name: str | None, allow_magic_methods: bool = False) -> None:
        if name is not None and not name_is_allowed(name):
            self.error(node, f'"{name}" is not allowed as a name in this sandbox')

    def check_binding(self, node: Any, name: str | None) -> None:
        """Check a name a statement binds, given as a string rather than a ``Name`` node (a
        function, class, argument, import alias, ``except ... as``, capture pattern): also
        never one of :data:`UNASSIGNABLE_NAMES` (``import math as __name__`` would rename the
        module, and with it the module of every class defined after)."""
        self.check_name(node, name)
        if name in UNASSIGNABLE_NAMES:
            self.error(node, f'assigning "{name}" is not allowed in this sandbox')
        if name in METHOD_ONLY_NAMES and id(node) not in self.methods:
            self.error(node, f'"{name}" may only be defined as a method of a class in this sandbox')

    def visit_Module(self, node: ast.Module) -> ast.AST:
        _ClassPrivateNames().visit(node)
        collector = _BoundNames()
        collector.visit(node)
        self.bound_names = collector.names
        own = _OwnAttributes()
        own.visit(node)
        self.own_private = own.names
        self.methods = {
            id(statement)
            for klass in ast.walk(node)
            if isinstance(klass, ast.ClassDef)
            for statement in klass.body
            if isinstance(statement, ast.FunctionDef)
        }
        return self.node_contents_visit(node)

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in FORBIDDEN_NAMES and not (node.id in self.bound_names and not is_dunder(node.id)):
            self.error(
                node, f'"{node.id}" is not available in this sandbox (no file, eval or introspection access)'
            )
        else:
            self.check_name(node, node.id)
        if node.id in UNASSIGNABLE_NAMES and not isinstance(node.ctx, ast.Load):
            self.error(node, f'assigning "{node.id}" is not allowed in this sandbox')
        if node.id in METHOD_ONLY_NAMES and not isinstance(node.ctx, ast.Load):
            self.error(node, f'"{node.id}" may only be defined as a method of a class in this sandbox')
        return self.node_contents_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        name = node.attr
        reading = isinstance(node.ctx, ast.Load)
        if name == CLASS_ATTRIBUTE:
            if not reading:
                self.error(node, 'assigning or deleting "__class__" is not allowed in this sandbox')
            node = self.node_contents_visit(node)
            return _call("__genplan_class__", node, node.value)
        if not attribute_is_allowed(name):
            self.error(node, f'access to the attribute "{name}" is not allowed in this sandbox')
        if name in UNASSIGNABLE_NAMES and not reading:
            self.error(node, f'assigning "{name}" is not allowed in this sandbox')
        if is_private(name) and reading and name not in self.own_private | LIBRARY_PRIVATE_API:
            self.error(
                node,
                f'access to the private attribute "{name}" is not allowed in this sandbox: the program never '
                "defines it (private attributes of modules and library objects are off limits)",
            )
        node = self.node_contents_visit(node)
        if needs_owner(name):
            if reading:
                return _call("__genplan_private__", node, node.value, ast.Constant(name))
            node.value = _call("__genplan_receiver__", node.value, node.value, ast.Constant(name))
        elif name in FORMAT_METHODS and reading:
            return _call("__genplan_format__", node, node.value, ast.Constant(name))
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        if (
            isinstance(node.func, ast.Name)
            and node.func.id == "type"
            and (len(node.args) != 1 or node.keywords)
        ):
            self.error(node, "type(name, bases, dict) is not allowed in this sandbox; use a class statement")
        if (
            isinstance(node.func, ast.Name)
            and node.func.id == "vars"
            and "vars" not in self.bound_names
            and not node.args
            and not node.keywords
        ):
            self.error(node, "vars() without an argument is not available in this sandbox; use vars(obj)")
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
            self.check_binding(node, alias.asname)
        return self.node_contents_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.AST:
        if node.level:
            self.error(node, "relative imports are not allowed in this sandbox")
        self._check_module(node, node.module)
        partial = PARTIAL_MODULES.get(node.module or "")
        for alias in node.names:
            if alias.name == "*":
                self.error(node, '"from ... import *" is not allowed in this sandbox')
            elif not name_is_allowed(alias.name) or alias.name.startswith("_"):
                self.error(node, f'importing "{alias.name}" is not allowed in this sandbox')
            elif partial is not None and alias.name not in partial:
                self.error(
                    node,
                    f'importing "{alias.name}" from "{node.module}" is not allowed in this sandbox; '
                    f"available: {', '.join(sorted(partial))}",
                )
            self.check_binding(node, alias.asname)
        return self.node_contents_visit(node)

    # -- definitions ---------------------------------------------------------------------
    def _check_arguments(self, node: ast.FunctionDef | ast.Lambda) -> None:
        arguments = node.args
        for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
            self.check_binding(node, argument.arg)
        for optional in (arguments.vararg, arguments.kwarg):
            if optional is not None:
                self.check_binding(node, optional.arg)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        self.check_binding(node, node.name)
        self._check_arguments(node)
        return self.node_contents_visit(node)

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        self._check_arguments(node)
        return self.node_contents_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        self.check_binding(node, node.name)
        if any(keyword.arg == "metaclass" for keyword in node.keywords):
            self.error(node, 'the keyword argument "metaclass" is not allowed in this sandbox')
        return self.node_contents_visit(node)

    def visit_MatchClass(self, node: ast.MatchClass) -> ast.AST:
        # ``case C(attr=x)`` reads ``attr`` with the real getattr: every name is checked here,
        # and private ones are refused (no run-time guard sees them).
        for name in node.kwd_attrs:
            if not attribute_is_allowed(name):
                self.error(node, f'access to the attribute "{name}" is not allowed in this sandbox')
            elif needs_owner(name):
                self.error(
                    node,
                    f'the private attribute "{name}" may not be named in a class pattern in this sandbox '
                    f"(read it as obj.{name} instead)",
                )
        return self.node_contents_visit(node)

    # Capture patterns bind names given as strings, not Name nodes: ``case __name__:`` renamed
    # the module (and with it every later class's module), ``case __annotations__:`` in a class
    # body replaced its annotations.
    def visit_MatchAs(self, node: ast.MatchAs) -> ast.AST:
        self.check_binding(node, node.name)
        return self.node_contents_visit(node)

    def visit_MatchStar(self, node: ast.MatchStar) -> ast.AST:
        self.check_binding(node, node.name)
        return self.node_contents_visit(node)

    def visit_MatchMapping(self, node: ast.MatchMapping) -> ast.AST:
        self.check_binding(node, node.rest)
        return self.node_contents_visit(node)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> ast.AST:
        self.check_binding(node, node.name)
        return self.node_contents_visit(node)

    # -- plain Python, allowed as it is (no run-time guards) ------------------------------
    def _allow(self, node: ast.AST) -> ast.AST:
        return self.node_contents_visit(node)

    visit_Subscript = _allow
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
        A code object to run in a module from :func:`genplan.sandbox.runtime.new_program_module`.

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
