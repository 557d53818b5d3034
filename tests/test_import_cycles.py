"""No import circles among the project's modules.

A circle (``a`` imports ``b``, ``b`` imports ``a``, at the top or inside a function) means neither
module can be read, tested or moved without the other; the usual cure is a third module holding
what both need (``oracles/policy.py`` for the two Nederhof oracles, ``jobs/status.py`` for the
backends).  The graph is read from every module's AST, importing nothing: an edge for every
``import``/``from ... import`` at any depth, to the module it names (``from pkg import sub`` names
``pkg.sub`` when that is a module).  A module's own parent packages are not counted: Python runs
them first anyway, and a package's ``__init__`` gathering its modules is no circle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("parsing_core", "server", "ui", "deploy", "benchmarks", "tests")


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    return {module_name(p, root): p for top in packages for p in sorted((root / top).rglob("*.py"))}


def named(node: ast.Import | ast.ImportFrom, package: str) -> list[str]:
    """The dotted names an import statement reaches, relative imports made absolute."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        parts = package.split(".")
        base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
    return [f"{base}.{alias.name}" for alias in node.names] + [base]


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules ``name`` imports (its own parent packages aside)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        targets = named(node, package)
        if isinstance(node, ast.ImportFrom):  # ``from pkg import sub``: sub when it is a module
            submodules = [t for t in targets[:-1] if t in known]
            targets = submodules if len(submodules) == len(targets) - 1 else [*submodules, targets[-1]]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                found.add(target)
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def import_graph(root: Path, packages: Iterable[str]) -> dict[str, set[str]]:
    known = modules(root, packages)
    return {name: imports_of(name, path, known) for name, path in known.items()}


def test_the_graph_is_read():
    graph = import_graph(ROOT, PACKAGES)
    assert len(graph) > 200
    assert "parsing_core.oracles.policy" in graph["parsing_core.oracles.nederhof_linear"]
    assert "server.jobs.ray_backend" in graph["server.jobs.backend"]  # imported inside a function


def test_no_module_imports_itself_through_others():
    found = circles(import_graph(ROOT, PACKAGES))
    assert not found, "import circles (give what both need a module of its own):\n" + "\n".join(
        " ↔ ".join(group) for group in found)


#: Packages of the library that learn or run experiments, above the oracles: they use the oracles,
#: never the other way round (the learned oracle is registered from ``rl``, not imported by them).
ABOVE_THE_ORACLES = ("parsing_core.rl", "parsing_core.model", "parsing_core.experiments",
                     "parsing_core.train")


def test_the_oracles_import_nothing_above_them():
    graph = import_graph(ROOT, ["parsing_core"])
    bad = [f"{name} imports {target}" for name, targets in graph.items()
           if name.startswith("parsing_core.oracles") for target in sorted(targets)
           if target.startswith(ABOVE_THE_ORACLES)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("late", [False, True], ids=["at the top", "inside a function"])
def test_a_circle_is_found(tmp_path, late):
    """The finder sees a circle made the way the project's were: a late import back."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from .a import f\n")
    (package / "a.py").write_text("from .b import g\ndef f():\n    return g()\n")
    back_late = "def g():\n    from .a import f\n    return f\n"
    back_top = "from pkg import a\ndef g():\n    return a\n"
    (package / "b.py").write_text(back_late if late else back_top)
    assert circles(import_graph(tmp_path, ["pkg"])) == [["pkg.a", "pkg.b"]]
    (package / "b.py").write_text("def g():\n    return 1\n")
    assert circles(import_graph(tmp_path, ["pkg"])) == []
