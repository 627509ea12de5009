"""No import cycles in `parlour/`: the import graph of its modules, read with `ast`, has none.

Every `import` and `from ... import` counts, at module level and inside functions alike
(a function-level import is a cycle put off until the function runs), and so do those under
`if TYPE_CHECKING:`: they never run, but a reader and the type checker still follow them
(core/commands.py and core/game.py were such a pair).

`from package import name` is an edge to `package.name` when that is a module, else to
`package`. Importing a module also runs its packages' `__init__.py`, but that is not
counted as an edge: a package that imports its own modules would otherwise be a cycle
with each of them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

import parlour

ROOT = Path(parlour.__file__).parent

Graph = Mapping[str, set[str]]


def module_names(root: Path = ROOT) -> dict[str, Path]:
    """Every module under `root` by dotted name (a package by its own name)."""
    names = {}
    for path in sorted(root.rglob("*.py")):
        parts = [root.name, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement in `tree`, at any depth."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node


def _targets(node: ast.Import | ast.ImportFrom, importer: str, is_package: bool,
             known: Mapping[str, Path]) -> Iterator[str]:
    """The modules of `known` that an import statement in module `importer` names."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:  # relative: from the importer's package, one level up per extra dot
            package = importer.split(".") if is_package else importer.split(".")[:-1]
            package = package[: len(package) - (node.level - 1)]
            base = ".".join([*package, *([base] if base else [])])
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                 for alias in node.names]
    for name in names:
        while name and name not in known:  # `import a.b.c` where c is a name, not a module
            name = name.rpartition(".")[0]
        if name:
            yield name


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the modules of `root` it imports."""
    known = module_names(root)
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        graph[name] = {target for node in _imports(tree)
                       for target in _targets(node, name, is_package, known)} - {name}
    return graph


def find_cycle(graph: Graph) -> list[str] | None:
    """A cycle of `graph` as the modules along it, the first repeated at the end; None if
    there is none (a depth-first search that keeps the path it is on)."""
    finished: set[str] = set()
    for start in sorted(graph):
        if start in finished:
            continue
        path = [start]
        next_steps = [iter(sorted(graph.get(start, ())))]
        while path:
            step = next(next_steps[-1], None)
            if step is None:
                finished.add(path.pop())
                next_steps.pop()
            elif step in path:
                return [*path[path.index(step):], step]
            elif step not in finished:
                path.append(step)
                next_steps.append(iter(sorted(graph.get(step, ()))))
    return None


def test_the_finder_sees_a_cycle_and_its_absence() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_sees_function_level_and_type_checking_imports(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from typing import TYPE_CHECKING\n"
                                  "if TYPE_CHECKING:\n    from pkg import b\n"
                                  "def f():\n    from pkg.c import thing\n")
    (package / "b.py").write_text("from . import a\n")
    (package / "c.py").write_text("import pkg.a\nthing = 1\n")
    assert import_graph(package) == {"pkg": set(), "pkg.a": {"pkg.b", "pkg.c"},
                                     "pkg.b": {"pkg.a"}, "pkg.c": {"pkg.a"}}
    assert find_cycle(import_graph(package)) == ["pkg.a", "pkg.b", "pkg.a"]


def test_parlour_has_no_import_cycle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


# -- layers: what each part of Parlour may import (the README's architecture map) -----------
MAY_IMPORT: dict[str, set[str]] = {
    "parlour.core": set(),
    "parlour.games": {"parlour.core"},
    "parlour.store": {"parlour.core"},
    "parlour.stats": {"parlour.core", "parlour.store"},
    "parlour.server.timing": set(),
    "parlour.server.patch": set(),
    "parlour.server.memory": set(),
    "parlour.server.compute": {"parlour.core", "parlour.games", "parlour.server.memory"},
    "parlour.server.limits": set(),
    "parlour.server.metrics": set(),
    "parlour.server.hub": {"parlour.core", "parlour.store", "parlour.server.compute",
                           "parlour.server.timing", "parlour.server.patch",
                           "parlour.server.limits", "parlour.server.metrics"},
    "parlour.server.api": {"parlour.core", "parlour.stats", "parlour.store",
                           "parlour.server.hub", "parlour.server.timing",
                           "parlour.server.memory", "parlour.server.limits",
                           "parlour.server.metrics"},
    "parlour.server.hosted": {"parlour.core", "parlour.store", "parlour.server.hub"},
}
"""Each layer and the layers it may import besides itself; layers not named here
(`app.py`, `cli.py`) wire the others and may import any of them. A game's tests may
also use the server's and the store's (they play through the API)."""
WEB_FRAMEWORKS = ("fastapi", "starlette", "uvicorn")
"""Only the doors speak HTTP: `parlour.server.api`, `app.py` and `cli.py`."""


def layer_of(module: str) -> str | None:
    """The layer of MAY_IMPORT that `module` belongs to (the longest that names it)."""
    owners = [name for name in MAY_IMPORT if module == name or module.startswith(name + ".")]
    return max(owners, key=len, default=None)


def test_each_layer_imports_only_the_layers_below_it() -> None:
    wrong = [
        f"{module} -> {target}"
        for module, targets in import_graph().items()
        if ".tests" not in module and (layer := layer_of(module)) is not None
        for target in targets
        if (other := layer_of(target)) != layer and other not in MAY_IMPORT[layer]
        and target not in ("parlour", "parlour.server")  # packages with nothing in them
    ]
    assert wrong == []


def third_party_roots(path: Path) -> set[str]:
    """The top-level packages a module's import statements name."""
    roots = set()
    for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
        names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                 else [node.module or ""])
        roots |= {name.split(".")[0] for name in names}
    return roots


def test_only_the_doors_speak_http() -> None:
    doors = ("parlour.server.api", "parlour.server.app", "parlour.cli")
    speaking = sorted(
        name for name, path in module_names().items()
        if not name.startswith(doors) and ".tests" not in name
        and third_party_roots(path) & set(WEB_FRAMEWORKS)
    )
    assert speaking == []
