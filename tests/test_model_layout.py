"""The library's layout: no parser/scoring import cycle, one parser choice, one ``Arc``, one name per meaning.

* :mod:`parsing_core.model.parser` imports :mod:`parsing_core.model.scoring` (``Parser.scorer``), and
  scoring never imports the parser (not even for type checking: it types it with a protocol), so
  the parser's choice — the best legal move with its label — is defined once, in scoring, and
  batch parsing and a :class:`Scorer` play the same moves.
* ``Arc`` is defined once, in :mod:`parsing_core.trees`, and exported as ``parsing_core.Arc``.
* The approximate arc-standard oracle's rule answer is ``RuleVerdict``; ``Verdict`` is the UI's.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import torch

import parsing_core as pc
import parsing_core.trees
from parsing_core.model import ModelConfig, Parser, Vocab
from parsing_core.model.read_back import finished
from parsing_core.oracles import arc_standard_approx
from parsing_core.synthetic import synthetic_treebank

LIBRARY = Path(pc.__file__).resolve().parent
TINY = ModelConfig(word_dim=8, upos_dim=4, lstm_dim=8, lstm_layers=1, mlp_dim=8, min_count=1)


def module_name(path: Path) -> str:
    parts = path.relative_to(LIBRARY.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """The ``parsing_core`` modules a file imports anywhere (``TYPE_CHECKING`` blocks and functions too)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = (f"{base}.{node.module}" if node.module else base) if node.level else (node.module or "")
            out.add(target)
            out.update(f"{target}.{a.name}" for a in node.names)  # `from . import scoring`
    return out


def graph() -> dict[str, set[str]]:
    files = {module_name(p): p for p in LIBRARY.rglob("*.py")}
    return {name: {m for m in imports(p) if m in files and m != name} for name, p in files.items()}


def test_the_parser_imports_scoring_and_scoring_never_imports_the_parser() -> None:
    edges = graph()
    assert "parsing_core.model.scoring" in edges["parsing_core.model.parser"]
    assert "parsing_core.model.parser" not in edges["parsing_core.model.scoring"], (
        "parsing_core/model/scoring.py imports parser.py (which imports scoring.py): an import cycle")


def test_the_model_package_has_no_import_cycle() -> None:
    """Submodule to submodule only: a package's ``__init__`` re-exporting its submodules is no cycle."""
    edges = {m: {t for t in ts if not t.endswith(("model", "__init__"))}
             for m, ts in graph().items() if m.startswith("parsing_core.model.")}
    done: set[str] = set()

    def visit(m: str, path: tuple[str, ...]) -> None:
        assert m not in path, f"import cycle: {' -> '.join((*path[path.index(m):], m))}"
        if m in done:
            return
        for t in edges.get(m, ()):
            visit(t, (*path, m))
        done.add(m)

    for m in edges:
        visit(m, ())


@pytest.mark.parametrize("system", ["arc-standard", "arc-eager", "arc-hybrid", "arc-standard-swap"])
def test_batch_parsing_and_the_scorer_make_the_same_labelled_choices(system: str) -> None:
    """An untrained labelled parser (arbitrary scores): same heads, same labels, move for move."""
    sentences = synthetic_treebank(10, 0.3 if system.endswith("swap") else 0.0, seed=5, max_len=10)
    torch.manual_seed(1)
    parser = Parser(system, Vocab.build(sentences, min_count=1), TINY)
    assert parser.labelled
    for s, batch_parse in zip(sentences, parser.parse(sentences, batch_size=4)):
        scorer = parser.scorer(s)
        trace = pc.run(parser.system, s, scorer.choose)
        for c, t in zip(trace.configurations, trace.transitions):
            assert scorer.best(c) == t
        played = finished(s, trace.final, parser.labelled)
        assert (played.heads, played.labels) == (batch_parse.heads, batch_parse.labels)


def test_one_arc_type_exported_as_pc_arc() -> None:
    assert pc.Arc is parsing_core.trees.Arc == tuple[int, int]
    assert "Arc" in pc.__all__
    defining = sorted(module_name(p) for p in LIBRARY.rglob("*.py")
                      for node in ast.parse(p.read_text(encoding="utf-8")).body
                      if isinstance(node, ast.Assign | ast.AnnAssign)
                      and any(isinstance(t, ast.Name) and t.id == "Arc"
                              for t in (node.targets if isinstance(node, ast.Assign) else [node.target])))
    assert defining == ["parsing_core.trees"]


def test_the_approximate_oracles_rule_answer_is_a_rule_verdict() -> None:
    assert not hasattr(arc_standard_approx, "Verdict")
    answer = arc_standard_approx.shift_verdict(pc.get_system("arc-standard").initial(pc.default_sentence()),
                                               pc.default_sentence())
    assert isinstance(answer, arc_standard_approx.RuleVerdict)
