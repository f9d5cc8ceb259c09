"""Sphinx roles in genplan's docstrings as links in the API reference: a griffe extension.

genplan's docstrings name other objects as Sphinx does (``:class:`~genplan.llm.spec.BackendSpec```,
``:func:`.renaming.find_name_mapping```); mkdocstrings would show the role as text. Loaded by
``mkdocs.yml``, this turns each into an optional cross-reference of mkdocs-autorefs: a link where
the object is rendered in the reference, the name in code where it is not (a private helper), so
an unresolved name never fails ``mkdocs build --strict``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|func|mod|data|meth|attr|exc|obj):`(~?)(\.?[A-Za-z_][\w.]*)`")


def cross_references(text: str, resolve: Callable[[str], str]) -> str:
    """``text`` with every Sphinx role replaced by an optional autorefs reference to
    ``resolve(name)``, shown as the last part of the name when the role writes ``~`` (as Sphinx
    does), else as written."""

    def replace(match: re.Match[str]) -> str:
        target = match.group(2)
        shown = target.rsplit(".", 1)[-1] if match.group(1) else target.lstrip(".")
        return f'<autoref identifier="{resolve(target)}" optional><code>{shown}</code></autoref>'

    return ROLE.sub(replace, text)


def _resolver(obj: griffe.Object) -> Callable[[str], str]:
    """Full paths for the names in ``obj``'s docstring: ``.x`` from its package, a full path
    (``genplan.``) as written, else the first part from ``obj``'s scope (its members, its module's
    imports and members), as written when it is not there."""
    module = obj.module
    package = module.path if module.is_init_module else module.path.rpartition(".")[0]

    def resolve(name: str) -> str:
        if name.startswith("."):
            return package + name
        if name.startswith("genplan."):
            return name
        first, dot, rest = name.partition(".")
        try:
            return obj.resolve(first) + dot + rest
        except griffe.NameResolutionError:
            return name

    return resolve


class SphinxRoles(griffe.Extension):
    """Rewrites the roles of every docstring once the package is loaded (so a name defined
    further down a module resolves)."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = cross_references(obj.docstring.value, _resolver(obj))
