"""Torch is imported when a page first needs a network, not when a learner opens a page.

Torch takes seconds of CPU and hundreds of MB to import.  The Welcome page, Lessons, the Stepper,
Practice and the Glossary show no network until a learner picks a model or starts a training
demo, so a server (or a replica) that only serves them never imports it; ``parsing_core.model``
hands out its torch-free names (specs, records, :class:`MoveScore`) at once and the others
(:data:`parsing_core.model.NEEDS_TORCH`) on first use.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OPENED_WITHOUT_TORCH = ("app.py", "pages/lessons.py", "pages/stepper.py", "pages/practice.py",
                        "pages/glossary.py")

OPEN_PAGES = """
import json, sys
from streamlit.testing.v1 import AppTest
for page in sys.argv[1:]:
    at = AppTest.from_file(page, default_timeout=120).run()
    print(json.dumps([page, "torch" in sys.modules, [e.value for e in at.exception]]))
"""


def test_the_pages_a_learner_opens_first_do_not_import_torch() -> None:
    """One fresh interpreter opens the pages one after the other and says, after each, whether
    torch was imported by then (so the first page that imports it is the one named)."""
    done = subprocess.run([sys.executable, "-c", OPEN_PAGES, *OPENED_WITHOUT_TORCH], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("[")]
    assert [page for page, _, _ in rows] == list(OPENED_WITHOUT_TORCH)
    for page, torch_imported, exceptions in rows:
        assert not exceptions, (page, exceptions)
        assert not torch_imported, f"{page} imported torch"


def test_the_model_package_gives_every_name_and_imports_torch_only_for_those_that_need_it() -> None:
    script = """
import json, sys
import parsing_core.model as model
before = "torch" in sys.modules
torch_free = [n for n in model.__all__ if n not in model.NEEDS_TORCH and getattr(model, n) is not None]
still = "torch" in sys.modules
found = all(getattr(model, name) is not None for name in model.NEEDS_TORCH)
print(json.dumps([before, still, len(torch_free), found, "torch" in sys.modules]))
"""
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    before, still, torch_free, found, after = json.loads(done.stdout.strip().splitlines()[-1])
    assert (before, still, found, after) == (False, False, True, True)
    assert torch_free >= 10  # specs, records, presets, MoveScore, Vocab...
