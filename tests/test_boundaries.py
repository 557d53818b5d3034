"""The layers stay apart: ``parsing_core`` → ``server`` → ``ui`` → ``pages``; nothing runs on ``benchmarks``.

* ``parsing_core`` (every submodule) imports with Streamlit blocked, and never imports ``ui``,
  ``pages``, ``app``, ``benchmarks``, ``tests`` or Streamlit, not even inside a function;
* the pure builders of ``ui`` (every module under ``ui/views``) import with Streamlit blocked;
* inside ``ui``: ``views`` imports no other folder of ``ui``, ``widgets`` imports no page's folder,
  and a page's folder (``ui/stepper``, ``ui/lab``) imports no other page's folder;
* ``parsing_core`` never imports the app's ``server`` package (progress, jobs, limits);
* the pages (``pages/*.py``, ``app.py``) import only ``ui``, ``parsing_core``, ``server``, the
  standard library and installed packages.

Imports run in a fresh interpreter (``sys.executable``) with a finder that refuses ``streamlit``;
the source checks read the files with :mod:`ast`, importing nothing.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# ui is filed by concern (see ui/__init__.py): every module under ui/views is a shared pure builder
# (tables, DOT text, state, downloads), and a page folder's pure twins are named ``*_view``
# (ui/lab/speed_view.py beside ui/lab/speed.py); all of them must import without Streamlit -- found
# by walking the packages, so a new view is checked without being listed.  The packages themselves
# (``ui`` and its folders) are pure too.
# Views that must be found by the walk (so that the walk is known not to come back empty).
UI_VIEWS_KNOWN = [
    "ui.views.cost_table",
    "ui.views.drawing",
    "ui.views.labels",
    "ui.views.oracle_view",
    "ui.views.safe_text",
    "ui.views.sources",
    "ui.views.state",
    "ui.views.tables",
    "ui.views.training",
    "ui.lab.speed_view",
    "ui.practice.items_view",
    "ui.stepper.exports_view",
    "ui.stepper.model_view",
]
# The folders of ui: the pure views, the shared widgets, and one folder per page (found on disk,
# each named after its page in pages/).  Everything outside ui/views may use Streamlit.
UI_FOLDERS = sorted(p.name for p in (ROOT / "ui").iterdir() if p.is_dir() and p.name != "__pycache__")
UI_PAGE_FOLDERS = set(UI_FOLDERS) - {"views", "widgets"}
UI_PACKAGES = ["ui", *(f"ui.{name}" for name in UI_FOLDERS)]

# Names at the top of the checkout: what is ours, not the standard library's or a package's.
FIRST_PARTY = {p.stem for p in ROOT.iterdir()
               if p.suffix == ".py" or (p.is_dir() and not p.name.startswith("."))}

BLOCK_STREAMLIT = textwrap.dedent("""
    import importlib, sys

    class BlockStreamlit:
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] == "streamlit":
                raise ImportError(f"{name} is blocked: this module must import without Streamlit")
            return None

    sys.meta_path.insert(0, BlockStreamlit())
""")


# The three import checks, each a stage of one script: importing torch and the app's modules costs
# seconds per interpreter, so they share one fresh interpreter, in this order (each stage's modules
# are imported there with Streamlit blocked, and Streamlit must still be absent after it).
IMPORT_STAGES = {
    "parsing_core": "import parsing_core",
    "parsing_core modules": """
        import pkgutil
        import parsing_core

        def fail(name):
            raise ImportError(f"cannot import package {name}")

        names = [m.name for m in pkgutil.walk_packages(parsing_core.__path__, "parsing_core.", onerror=fail)]
        for name in names:
            importlib.import_module(name)
        assert "parsing_core.oracles.nederhof" in names and "parsing_core.model.trainer" in names, names
    """,
    "ui views": f"""
        import pkgutil

        def fail(name):
            raise ImportError(f"cannot import package {{name}}")

        for name in {UI_PACKAGES!r}:
            importlib.import_module(name)
        import ui.views
        names = [m.name for m in pkgutil.walk_packages(ui.views.__path__, "ui.views.", onerror=fail)]
        for package in {UI_PACKAGES!r}[1:]:
            where = importlib.import_module(package).__path__
            names += [m.name for m in pkgutil.iter_modules(where, package + ".") if m.name.endswith("_view")]
        for name in names:
            importlib.import_module(name)
        missing = set({UI_VIEWS_KNOWN!r}) - set(names)
        assert not missing, f"views not found by the walk: {{sorted(missing)}}"
    """,
}
STAGE = textwrap.dedent("""
    import json, traceback
    try:
        exec({code!r})
        assert 'streamlit' not in sys.modules, "streamlit was imported"
        print(json.dumps([{name!r}, ""]), flush=True)
    except BaseException:
        print(json.dumps([{name!r}, traceback.format_exc()]), flush=True)
""")


@pytest.fixture(scope="module")
def blocked_imports() -> dict[str, str]:
    """Each stage's outcome in one fresh interpreter at the repository root with Streamlit
    blocked: "" if it passed, else what went wrong."""
    script = BLOCK_STREAMLIT + "".join(STAGE.format(name=name, code=textwrap.dedent(code))
                                       for name, code in IMPORT_STAGES.items())
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    outcomes = {name: f"the interpreter stopped before this stage:\n{done.stdout}{done.stderr}"
                for name in IMPORT_STAGES}
    outcomes.update(json.loads(line) for line in done.stdout.splitlines() if line.startswith("["))
    return outcomes


def check_stage(outcomes: dict[str, str], name: str) -> None:
    if outcomes[name]:
        pytest.fail(f"with Streamlit blocked ({name}):\n{outcomes[name]}", pytrace=False)


def test_parsing_core_imports_without_streamlit(blocked_imports):
    check_stage(blocked_imports, "parsing_core")


def test_every_parsing_core_module_imports_without_streamlit(blocked_imports):
    # walk_packages imports each package to look inside it and, without onerror, hides a failure.
    check_stage(blocked_imports, "parsing_core modules")


def test_pure_ui_modules_import_without_streamlit(blocked_imports):
    """The ui packages, every module under ui/views and every page folder's ``*_view`` module (walked,
    not listed) import without Streamlit."""
    check_stage(blocked_imports, "ui views")


def test_every_ui_folder_is_a_package_that_says_what_it_holds():
    """ui/views, ui/widgets and the page folders are packages whose docstring is their map."""
    assert {"views", "widgets"} <= set(UI_FOLDERS)
    for package in UI_PACKAGES:
        init = ROOT.joinpath(*package.split("."), "__init__.py")
        assert init.exists(), f"{package} is a folder without __init__.py"
        assert ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), f"{package} has no docstring"


def imported(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in a file, at any depth, and of every
    ``importlib.import_module("...")`` / ``__import__("...")`` with a literal name."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    inside = ROOT in path.resolve().parents
    package = ".".join((path.relative_to(ROOT) if inside else Path(path.name)).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the file's package, one level up per extra dot
                parts = package.split(".")
                base = parts[: len(parts) - (node.level - 1)]
                found.append((node.lineno, ".".join(base + ([node.module] if node.module else []))))
            else:
                found.append((node.lineno, node.module or ""))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in {"import_module", "__import__"} and isinstance(node.args[0].value, str):
                found.append((node.lineno, node.args[0].value))
    return found


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def installed(top: str) -> bool:
    """Is ``top`` a package installed outside the checkout?  (Found without importing it.)"""
    spec = importlib.util.find_spec(top)
    if spec is None:
        return False
    where = [spec.origin] if spec.origin else list(spec.submodule_search_locations or [])
    return bool(where) and not any(ROOT in Path(w).resolve().parents for w in where)


PAGE_FILES = sorted((ROOT / "pages").glob("*.py")) + [ROOT / "app.py"]
CORE_FILES = sorted((ROOT / "parsing_core").rglob("*.py"))


def test_the_files_are_found():
    assert len(PAGE_FILES) >= 3 and len(CORE_FILES) >= 30
    assert {"parsing_core", "ui", "pages", "benchmarks", "tests", "app"} <= FIRST_PARTY


@pytest.mark.parametrize("path", PAGE_FILES, ids=rel)
def test_pages_import_only_ui_parsing_core_server_stdlib_and_packages(path):
    bad = []
    for line, name in imported(path):
        top = name.partition(".")[0]
        if top in {"ui", "parsing_core", "server"} or top in sys.stdlib_module_names:
            continue
        if top in FIRST_PARTY or not top:
            bad.append(f"{rel(path)}:{line}: imports {name or 'a relative module'}")
            continue
        if not installed(top):
            bad.append(f"{rel(path)}:{line}: imports {name}, neither ours nor installed")
    assert not bad, "\n".join(bad)


def test_parsing_core_never_imports_the_layers_above_it():
    forbidden = {"ui", "pages", "app", "benchmarks", "tests", "server", "deploy", "streamlit"}
    bad = [f"{rel(path)}:{line}: imports {name}"
           for path in CORE_FILES for line, name in imported(path) if name.partition(".")[0] in forbidden]
    assert not bad, "\n".join(bad)


def test_parsing_core_never_imports_the_server():
    """The library runs alone (a notebook, a job's process): no module of ``parsing_core`` imports the
    app's ``server`` package or Streamlit, at the top or inside a function, read from each file's AST."""
    assert (ROOT / "server" / "__init__.py").exists() and not (ROOT / "parsing_core" / "jobs").exists()
    bad = [f"{rel(path)}:{line}: imports {name}" for path in CORE_FILES for line, name in imported(path)
           if name.partition(".")[0] in {"server", "streamlit"}]
    assert not bad, "\n".join(bad)


def test_the_import_reader_sees_a_server_import_at_any_depth(tmp_path):
    """The check above can fail: an import of ``server`` inside a function is found."""
    module = tmp_path / "probe.py"
    module.write_text("def f():\n    from server.jobs import JobBoard\n", encoding="utf-8")
    assert (2, "server.jobs") in imported(module)


UI_FILES = sorted((ROOT / "ui").rglob("*.py"))


def allowed_ui_folders(path: Path) -> set[str]:
    """The folders of ``ui`` (and ``navigation``) that the file at ``path`` may import from."""
    folder = path.relative_to(ROOT / "ui").parts[0] if path.parent != ROOT / "ui" else ""
    if folder == "views" or path.stem.endswith("_view"):  # a pure builder: only other pure builders
        return {"views", folder}
    if folder == "widgets":
        return {"views", "widgets", "navigation"}
    if folder in UI_PAGE_FOLDERS:
        return {"views", "widgets", "navigation", folder}
    return {"views", "widgets", "navigation"} | UI_PAGE_FOLDERS  # ui/__init__.py, ui/navigation.py


def test_every_ui_page_folder_belongs_to_a_page():
    assert {"stepper", "practice", "lessons", "lab", "rl"} <= UI_PAGE_FOLDERS
    orphans = [name for name in UI_PAGE_FOLDERS if not (ROOT / "pages" / f"{name}.py").exists()]
    assert not orphans, f"ui folders without a page of that name in pages/: {orphans}"


@pytest.mark.parametrize("path", UI_FILES, ids=rel)
def test_ui_folders_import_only_what_is_below_them(path):
    allowed = allowed_ui_folders(path)
    bad = [f"{rel(path)}:{line}: imports {name}" for line, name in imported(path)
           if name.startswith("ui.") and name.split(".")[1] not in allowed]
    assert not bad, "\n".join(bad)
