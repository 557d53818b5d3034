"""Pure builders of the Oracle lab's Agreement view: tables and plotly figures from a lab job's
records (:mod:`parsing_core.experiments.lab`), whatever part of the job has run so far.

* :func:`agreement_table` — the inclusion buckets and Spearman's ρ, projective and non-projective
  gold apart, with the thesis's figures beside them where the thesis measured the same pair;
* :func:`bucket_figure`, :func:`rho_figure` — the same as bars and a histogram;
* :func:`confusion_table` — the most frequent optimal-set confusions (Nederhof's Table 11 form),
  each with a link that opens its first example in the stepper.

>>> from parsing_core.experiments.lab import LabSpec, SentenceRecord
>>> done = [SentenceRecord(0, 5, True, {100.0: 9, 50.0: 1}, (1.0,) * 9 + (0.5,))]
>>> table = agreement_table(done, LabSpec("xx_toy"))
>>> table.loc[0, "gold"], int(table.loc[0, "configurations"]), float(table.loc[0, "100"])
('projective', 10, 90.0)
"""

from __future__ import annotations

import math
import urllib.parse
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
import plotly.graph_objects as go

from parsing_core.experiments.agreement import BUCKETS
from parsing_core.experiments.lab import Confusion, LabRecord, LabSpec, LabStart, SentenceRecord, summary_of
from ui.views.sources import treebank_key
from ui.views.state import StepperState

BUCKET_NAMES = [f"{b:g}" for b in BUCKETS]
GOLD = {True: "projective", False: "non-projective"}



@dataclass(frozen=True)
class ThesisRow:
    """One row of the thesis's Tables 6.3–6.4 (arc-standard, approximate vs exact oracle)."""

    sentences: int
    shares: tuple[float, ...]
    rho_mean: float
    rho_sd: float


#: Tables 6.3 (projective) and 6.4 (non-projective) of the thesis, §6.2, UD 2.7 training splits.
THESIS: dict[tuple[str, bool], ThesisRow] = {
    ("en_lines", True): ThesisRow(2921, (99.22, 0.10, 0.60, 0.06, 0.02), 0.996, 0.043),
    ("ko_kaist", True): ThesisRow(17966, (98.78, 0.27, 0.80, 0.10, 0.05), 0.991, 0.072),
    ("grc_proiel", True): ThesisRow(9400, (99.32, 0.16, 0.45, 0.05, 0.02), 0.995, 0.044),
    ("grc_perseus", True): ThesisRow(4272, (99.25, 0.21, 0.49, 0.03, 0.02), 0.995, 0.045),
    ("en_lines", False): ThesisRow(253, (98.74, 0.21, 0.92, 0.06, 0.07), 0.988, 0.071),
    ("ko_kaist", False): ThesisRow(5042, (98.00, 0.32, 1.31, 0.21, 0.16), 0.961, 0.139),
    ("grc_proiel", False): ThesisRow(5612, (98.60, 0.23, 0.91, 0.18, 0.08), 0.981, 0.092),
    ("grc_perseus", False): ThesisRow(7202, (98.38, 0.28, 1.00, 0.25, 0.09), 0.977, 0.102),
}
THESIS_PAIR = ("arc-standard", "thesis-approx", "exact")


def sentences_of(records: Sequence[LabRecord]) -> list[SentenceRecord]:
    return [r for r in records if isinstance(r, SentenceRecord)]


def thesis_rows(spec: LabSpec) -> dict[bool, ThesisRow]:
    """The thesis's rows for this run's treebank, if the thesis compared this very pair on it."""
    if (spec.system, spec.approx, spec.exact) != THESIS_PAIR:
        return {}
    return {p: THESIS[(spec.treebank, p)] for p in (True, False) if (spec.treebank, p) in THESIS}


def thesis_note(spec: LabSpec) -> str:
    """Where the thesis's figures come from, or why there are none beside this run."""
    if (spec.system, spec.approx, spec.exact) != THESIS_PAIR:
        return "The thesis compared only arc-standard's approximate oracle with the exact one."
    if not thesis_rows(spec):
        return (f"The thesis has no {spec.treebank} rows (it measured en_lines, ko_kaist, grc_proiel "
                "and grc_perseus).")
    return ("Thesis rows: its Tables 6.3–6.4 (§6.2), the whole UD 2.7 training split, walks that follow "
            "the approximate oracle 10 % of the time.")


def agreement_table(records: Sequence[LabRecord], spec: LabSpec) -> pd.DataFrame:
    """One row per gold-tree kind seen so far (and the thesis's, where it has them): sentences,
    configurations compared, % per inclusion bucket, ρ mean and sd."""
    done = sentences_of(records)
    thesis = thesis_rows(spec)
    rows = []
    for projective in (True, False):
        count = sum(1 for r in done if r.projective == projective)
        if count:
            s = summary_of(done, projective)
            rows.append(row("this run", GOLD[projective], count, s.configurations, s.shares, s.rho_mean,
                            s.rho_sd))
        if projective in thesis:
            t = thesis[projective]
            rows.append(row("thesis", GOLD[projective], t.sentences, None, t.shares, t.rho_mean, t.rho_sd))
    columns = ["source", "gold", "sentences", "configurations", *BUCKET_NAMES, "rho mean", "rho sd"]
    return pd.DataFrame(rows, columns=columns)


def shown(table: pd.DataFrame) -> pd.DataFrame:
    """The agreement table as a narrow page shows it: source and gold in one column, short names,
    — where the thesis gives no count, % with 2 decimals and ρ with 3.

    >>> from parsing_core.experiments.lab import LabSpec
    >>> [str(x) for x in shown(agreement_table([], LabSpec("en_lines"))).iloc[0]]
    ['projective (thesis)', '2921', '—', '99.22', '0.10', '0.60', '0.06', '0.02', '0.996', '0.043']
    """
    names = [f"{g} ({s})" for g, s in zip(table["gold"], table["source"], strict=True)]
    out = pd.DataFrame({"gold trees": names,
                        "sentences": table["sentences"],
                        "configs": [("—" if pd.isna(k) else f"{int(k)}") for k in table["configurations"]]})
    for name in BUCKET_NAMES:
        out[name] = [figure(x, 2) for x in table[name]]
    out["ρ mean"] = [figure(x, 3) for x in table["rho mean"]]
    out["ρ sd"] = [figure(x, 3) for x in table["rho sd"]]
    return out


def figure(x: float, digits: int) -> str:
    """A share or a ρ as the table shows it; — where there is none (nothing compared yet)."""
    return "—" if pd.isna(x) else f"{x:.{digits}f}"


def row(source: str, gold: str, sentences: int, configurations: int | None, shares: Sequence[float],
        mean: float, sd: float) -> dict[str, object]:
    """One row of the agreement table; a run that has compared no configuration yet has no shares
    and no ρ (not 0 %: there is nothing to take a share of)."""
    def kept(x: float, digits: int) -> float:
        return math.nan if configurations == 0 else round(x, digits)

    return {"source": source, "gold": gold, "sentences": sentences, "configurations": configurations,
            **{name: kept(x, 2) for name, x in zip(BUCKET_NAMES, shares, strict=True)},
            "rho mean": kept(mean, 3), "rho sd": kept(sd, 3)}


def bucket_figure(table: pd.DataFrame, height: int = 360) -> go.Figure:
    """% of configurations per inclusion bucket, one bar group per row of the agreement table.

    A log scale: nearly everything is in the 100 bucket, and the rest would not show."""
    fig = go.Figure()
    for _, r in table.iterrows():
        fig.add_trace(go.Bar(x=[f"{b} %" for b in BUCKET_NAMES], y=[max(r[b], 0.001) for b in BUCKET_NAMES],
                             name=f"{r['source']}, {r['gold']}", text=[f"{r[b]:.2f}" for b in BUCKET_NAMES]))
    fig.update_layout(title="Inclusion of the first oracle's optimal set in the second's",
                      xaxis_title="share of the first oracle's optimal moves that are optimal for the second",
                      yaxis_title="% of configurations (log scale)", yaxis_type="log", barmode="group",
                      height=height, margin={"t": 50})
    fig.update_yaxes(dtick=1, exponentformat="none")  # ticks at powers of ten only
    fig.update_xaxes(type="category")  # "100 %" … "0 %" in that order, not read as numbers
    return fig


RHO_BINS = 20  # bins of width 0.1 from −1 to 1; ρ = 1 falls in the last


def rho_counts(rhos: Sequence[float]) -> list[int]:
    """How many ρs fall in each bin [−1, −0.9), …, [0.9, 1].

    >>> counts = rho_counts([-1.0, 0.0, 0.5, 1.0, 1.0])
    >>> counts[0], counts[10], counts[15], counts[19], sum(counts)
    (1, 1, 1, 2, 5)
    """
    counts = [0] * RHO_BINS
    for rho in rhos:
        counts[min(max(int((rho + 1) * RHO_BINS / 2), 0), RHO_BINS - 1)] += 1
    return counts


def rho_figure(records: Sequence[LabRecord], height: int = 360) -> go.Figure:
    """Histogram of Spearman's ρ per configuration, projective and non-projective gold apart
    (count on a log scale: most ρs are 1).  Counted here, so the figure holds 20 numbers per kind
    of tree, not every ρ."""
    done = sentences_of(records)
    centres = [-1 + (i + 0.5) * 2 / RHO_BINS for i in range(RHO_BINS)]
    fig = go.Figure()
    for projective in (True, False):
        rhos = [rho for r in done if r.projective == projective for rho in r.rhos]
        if rhos:
            fig.add_trace(go.Bar(x=centres, y=rho_counts(rhos), name=GOLD[projective], width=0.04))
    fig.update_layout(title="Spearman's ρ between the two oracles' costs, per configuration",
                      xaxis_title="ρ (bins of 0.1)", yaxis_title="configurations (log scale)",
                      yaxis_type="log", barmode="group", height=height, margin={"t": 50})
    fig.update_yaxes(dtick=1, exponentformat="none")
    fig.update_xaxes(range=[-1.05, 1.05], dtick=0.5)
    return fig


def stepper_link(spec: LabSpec, index: int, moves: str, base: str = "stepper") -> str:
    """The stepper at the configuration ``moves`` reach in sentence ``index`` of the run's treebank,
    with the run's two oracles side by side."""
    steps = tuple(moves.split(".")) if moves else ()
    state = StepperState(treebank_key(spec.treebank, spec.split, index, spec.folder), spec.system,
                         oracle=spec.approx, compare=spec.exact, moves=steps, cursor=len(steps))
    return f"{base}?{urllib.parse.urlencode(state.to_query())}"


def confusions(records: Sequence[LabRecord]) -> list[tuple[Confusion, int]]:
    """Every confusion seen, in order, with the sentence it was seen in."""
    return [(c, r.index) for r in sentences_of(records) for c in r.confusions]


def confusion_table(records: Sequence[LabRecord], spec: LabSpec, top: int = 10,
                    base: str = "stepper") -> pd.DataFrame:
    """Nederhof's Table 11 form: the most frequent (exact, approximate) optimal-set pairs where the
    two differ, their share of all such configurations, and a link to the first example."""
    seen = confusions(records)
    counts = Counter((c.exact, c.approx) for c, _ in seen)
    first: dict[tuple[str, str], tuple[int, str]] = {}
    for c, index in seen:
        first.setdefault((c.exact, c.approx), (index, c.moves))
    rows = [{f"{spec.exact} (optimal set)": e, f"{spec.approx} (optimal set)": a, "configurations": k,
             "share of confusions %": round(100 * k / len(seen), 1), "sentence": first[(e, a)][0],
             "example": stepper_link(spec, first[(e, a)][0], first[(e, a)][1], base)}
            for (e, a), k in counts.most_common(top)]
    columns = [f"{spec.exact} (optimal set)", f"{spec.approx} (optimal set)", "configurations",
               "share of confusions %", "sentence", "example"]
    return pd.DataFrame(rows, columns=columns)


def confusion_summary(records: Sequence[LabRecord]) -> str:
    """How often the optimal sets differ, in words."""
    done = sentences_of(records)
    compared = sum(sum(r.buckets.values()) for r in done)
    differ = sum(len(r.confusions) for r in done)
    if not compared:
        return "No configuration compared yet."
    return (f"The two optimal sets differ in {differ} of {compared} configurations compared "
            f"({100 * differ / compared:.2f} %).")


def progress(records: Sequence[LabRecord]) -> tuple[float, str]:
    """(fraction done, text) of the agreement walks, and how many sentences of the budget were
    left out (no gold tree, or longer than an oracle answers for).

    >>> progress([LabStart(40, 2), SentenceRecord(0, 5, True, {}, ())])
    (0.025, '1 of 40 sentences walked (2 of the budget left out: no gold tree, or too long for an oracle)')
    """
    start = next((r for r in records if isinstance(r, LabStart)), None)
    done = len(sentences_of(records))
    if start is None:
        return 0.0, "loading the treebank…"
    total = max(start.sentences, 1)
    text = f"{done} of {start.sentences} sentences walked"
    if start.left_out:
        text += f" ({start.left_out} of the budget left out: no gold tree, or too long for an oracle)"
    return min(done / total, 1.0), text


def sentence_frame(records: Sequence[LabRecord]) -> pd.DataFrame:
    """One row per walk: the raw numbers behind the tables, for a CSV."""
    rows = [{"sentence": r.index, "tokens": r.tokens, "gold": GOLD[r.projective],
             "configurations": sum(r.buckets.values()),
             **{f"in {b:g}": r.buckets.get(b, 0) for b in BUCKETS},
             "rho mean": sum(r.rhos) / len(r.rhos) if r.rhos else None, "confusions": len(r.confusions)}
            for r in sentences_of(records)]
    return pd.DataFrame(rows)
