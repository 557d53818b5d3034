"""The pages never branch on an exercise kind's name: each kind says how it is answered
(:class:`parsing_core.exercises.AnswerInput`) and keeps, reads back and describes its own answers,
so ``ui/`` and ``pages/`` ask the kind, not its name.

Read from the AST of every file under ``ui/`` and ``pages/`` (importing nothing), a comparison or a
lookup is refused when it

* compares with a kind's name (``kind == "next-move"``, ``kind in ("crossing-arcs", ...)``);
* uses a constant that lists kinds' names (``BOARD_KINDS = ("next-move", ...)``) to compare or look
  up, wherever the constant is defined;
* compares or looks up by an item's or a question's kind (``item.spec.kind in ...``,
  ``INPUTS[item.spec.kind]``).

A list of kinds as data (a ready-made set naming its kinds) is fine: it is not a branch.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import parsing_core.exercises as ex

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted([*(ROOT / "ui").rglob("*.py"), *(ROOT / "pages").glob("*.py")])
NAMES = frozenset(ex.list_kinds())


def names_a_kind(node: ast.AST | None) -> bool:
    """A kind's name as a literal, or a literal collection (or dict) holding one."""
    if isinstance(node, ast.Constant):
        return node.value in NAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(names_a_kind(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return any(names_a_kind(k) for k in node.keys)
    return False


def kind_lists(trees: list[ast.Module]) -> set[str]:
    """The names of module-level constants that list kinds' names, in any of the files."""
    found = set()
    for tree in trees:
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
                if isinstance(node, ast.AnnAssign) else []
            if targets and names_a_kind(node.value):
                found |= {t.id for t in targets if isinstance(t, ast.Name)}
    return found


def is_kind_of_a_thing(node: ast.AST) -> bool:
    """``item.spec.kind``, ``step.question.kind``: the kind of an item or of a lesson's question."""
    return (isinstance(node, ast.Attribute) and node.attr == "kind" and isinstance(node.value, ast.Attribute)
            and node.value.attr in {"spec", "question"})


def named(node: ast.AST) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def branches(tree: ast.Module, lists: set[str]) -> list[int]:
    """The lines of ``tree`` that compare with or look up by a kind's name."""
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(names_a_kind(s) or named(s) in lists or is_kind_of_a_thing(s) for s in sides):
                bad.append(node.lineno)
        elif isinstance(node, ast.Subscript):
            if named(node.value) in lists or is_kind_of_a_thing(node.slice):
                bad.append(node.lineno)
    return bad


TREES = {path: ast.parse(path.read_text(encoding="utf-8")) for path in FILES}
LISTS = kind_lists(list(TREES.values()))


def test_the_files_are_read():
    assert len(FILES) > 40 and any(p.name == "practice.py" for p in FILES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_branch_on_a_kind_name(path):
    lines = branches(TREES[path], LISTS)
    assert not lines, (f"{path.relative_to(ROOT)} branches on an exercise kind's name at lines {lines}: "
                       "ask the kind (its answer_input, to_json, describe, ...) instead")


@pytest.mark.parametrize("code", [
    'if kind == "next-move": pass',
    'x = item.spec.kind in ("crossing-arcs", "which-systems")',
    'BOARD = ("next-move", "whole-derivation")\nx = kind in BOARD',
    'INPUTS = {"cost-of-move": f}\ng = INPUTS[k]',
    'g = widgets[item.spec.kind]',
    'x = step.question.kind != ""',
])
def test_the_check_finds_a_branch(code):
    tree = ast.parse(code)
    assert branches(tree, kind_lists([tree]))


@pytest.mark.parametrize("code", [
    'READY = {"First steps": (["next-move", "trace-table"], ["arc-eager"], 1, 6, 1)}',
    'x = t.kind == "SH"',
    'widget = INPUTS[kind.answer_input.widget]',
    'x = claim.kind == "cost"',
])
def test_data_and_other_kinds_are_not_branches(code):
    tree = ast.parse(code)
    assert not branches(tree, kind_lists([tree]))
