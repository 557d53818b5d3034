"""How long the stepper takes to answer a click, on the server, for sentences of 10 and 25 tokens.

For each length, takes the first projective sentence of that length in a treebank of the data
directory (default ``en_lines`` dev; with ``--trees non-projective``, the first non-projective
one too), opens the stepper on it with the best oracle that is
exact for its gold tree (by the oracles' own ``exact_for``; the exhaustive search only when
nothing else is exact, since it is slow), then clicks "Oracle step" until the parse is
finished and times each click: from the click to the end of the rerun it causes (Streamlit's
headless ``AppTest``, so the time is the server's alone, with the test harness's small
overhead).  Prints a Markdown table of the median and the 90th percentile.

    python -m benchmarks.app [--treebank en_lines] [--split dev] [--lengths 10 25]
                             [--systems arc-eager arc-standard arc-eager-corrected]
                             [--trees projective non-projective] [--write]

``--write`` also writes the table to ``docs/benchmarks/app.md``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

import parsing_core as pc
from benchmarks.common import add_write_flag, write_page
from parsing_core.oracles import ranked
from ui.stepper.board_data import apply_action
from ui.views.sources import treebank_key

PAGE = Path(__file__).resolve().parents[1] / "pages" / "stepper.py"


def first_sentence(treebank: str, split: str, n: int, trees: str = "projective") -> int:
    """Index of the first ``trees`` (projective or non-projective) sentence of ``n`` tokens."""
    for i, s in enumerate(pc.load_treebank(treebank, split)):
        if s.n == n and s.is_projective == (trees == "projective"):
            return i
    raise SystemExit(f"no {trees} sentence of {n} tokens in {treebank} {split}")


def exact_oracle(system: pc.TransitionSystem, gold: pc.Sentence) -> str | None:
    """The library's first choice among the oracles exact for this gold tree (``ranked``: the
    search last, it is exponential, and only within its length limit)."""
    return next((n for n in ranked(system, gold) if pc.get_oracle(system, n).is_exact_for(gold)), None)


def click_times(query: dict[str, str]) -> list[float]:
    """Seconds from each "Oracle step" click to the end of its rerun, until the parse is finished."""
    at = AppTest.from_file(str(PAGE), default_timeout=60)
    at.query_params.update(query)
    at.run()
    times = []
    while move := board(at)["oracle"]["move"]:  # Oracle step, as the board component's callback plays it
        state = at.session_state["stepper.state"]
        at.session_state["stepper.state"] = apply_action(state, {"do": "oracle"}, move)
        start = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - start)
        if at.exception:
            raise SystemExit(f"the page failed: {at.exception[0].message}")
    return times


def board(at: AppTest) -> dict[str, Any]:
    """The data the Stepper's board component was sent in the last run (JSON bytes)."""
    (component,) = at.get("bidi_component")
    return dict(json.loads(component.proto.bytes))


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


INTRO = """A click on the [Stepper](../pages/stepper.md) costs one rerun, timed on the server from the
click to the end of its rerun (Streamlit's headless `AppTest`), clicking "Oracle step" through a
whole parse of the first sentence of each length whose tree is as the row says, with the fastest
oracle that is exact for the sentence on show.  Target: a median under 150 ms."""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--treebank", default="en_lines")
    ap.add_argument("--split", default="dev")
    ap.add_argument("--lengths", type=int, nargs="+", default=[10, 25])
    ap.add_argument("--systems", nargs="+", default=["arc-eager", "arc-standard", "arc-eager-corrected"])
    ap.add_argument("--trees", nargs="+", choices=["projective", "non-projective"], default=["projective"])
    add_write_flag(ap, "app")
    args = ap.parse_args()
    lines = ["| tree | tokens | system | exact oracle shown | clicks | median ms | p90 ms |",
             "|---|---|---|---|---|---|---|"]
    print("\n".join(lines), flush=True)
    for trees in args.trees:
        for name in args.systems:
            for n in args.lengths:
                lines.append(row(pc.get_system(name), args.treebank, args.split, n, trees))
                print(lines[-1], flush=True)
    if args.write:
        write_page("app", "Stepper click (server)",
                   [(f"Server time per click, {args.treebank} {args.split}", "\n".join(lines))], intro=INTRO)


def row(system: pc.TransitionSystem, treebank: str, split: str, n: int, trees: str = "projective") -> str:
    """One line of the table: the clicks through a parse of the first n-token sentence of ``trees``."""
    index = first_sentence(treebank, split, n, trees)
    oracle = exact_oracle(system, pc.load_treebank(treebank, split)[index])
    if oracle is None:
        return f"| {trees} | {n} | {system.name} | (none exact) | | | |"
    query = {"s": treebank_key(treebank, split, index), "sys": system.name, "oracle": oracle}
    times = [t * 1000 for t in click_times(query)]
    return (f"| {trees} | {n} | {system.name} | {oracle} | {len(times)} | {statistics.median(times):.0f} "
            f"| {percentile(times, 90):.0f} |")


if __name__ == "__main__":
    main()
