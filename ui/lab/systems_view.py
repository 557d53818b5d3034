"""Pure builders of the Oracle lab's "Two systems side by side" view: one gold tree derived by two
systems' static oracles, the derivations aligned by the arc each step builds (seed 003 compares
arc-standard and arc-eager so: arc-eager builds a right arc as soon as its dependent is seen,
arc-standard only once the dependent has all its own dependents).

>>> import parsing_core as pc
>>> s = pc.Sentence.from_heads("He sent her a letter .".split(), [2, 0, 2, 5, 2, 2])
>>> a, b = derivation("arc-standard", s), derivation("arc-eager", s)
>>> len(a.transitions), len(b.transitions)
(12, 10)
>>> last = aligned(a, b).iloc[-1]   # arc-eager attaches the verb to ROOT at once, arc-standard last
>>> last["arc"], int(last["arc-standard step"]), int(last["arc-eager step"])
('sent ← ROOT', 12, 3)
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go

import parsing_core as pc

Arc = tuple[int, int]  # (head, dependent)


def derivation(system_name: str, s: pc.Sentence) -> pc.Trace:
    """The parse of ``s`` that ``system_name``'s static oracle derives."""
    system = pc.get_system(system_name)
    return pc.run(system, s, pc.get_oracle(system, "static").chooser(s))


def arc_steps(trace: pc.Trace) -> dict[Arc, tuple[int, str]]:
    """Each arc built → (the step that builds it, 1-based; the moves since the previous arc)."""
    out: dict[Arc, tuple[int, str]] = {}
    since: list[str] = []
    for step in trace.steps()[1:]:
        since.append(str(step.transition))
        if step.arc is not None:
            out[step.arc] = (step.index, " ".join(since))
            since = []
    return out


def arc_name(s: pc.Sentence, arc: Arc) -> str:
    """``He ← sent`` (the dependent, then its head; ROOT for token 0)."""
    head, dependent = arc
    return f"{s.words[dependent - 1]} ← {'ROOT' if head == 0 else s.words[head - 1]}"


def aligned(a: pc.Trace, b: pc.Trace) -> pd.DataFrame:
    """One row per arc, in the order the first system builds them: when each system builds it
    (step) and with which moves since its previous arc; an arc one system never builds has no step."""
    steps_a, steps_b = arc_steps(a), arc_steps(b)
    order = [*steps_a, *(arc for arc in steps_b if arc not in steps_a)]
    name_a, name_b = a.system.name, b.system.name
    if name_a == name_b:
        name_b += " (2)"
    rows = []
    for arc in order:
        step_a, moves_a = steps_a.get(arc, (None, ""))
        step_b, moves_b = steps_b.get(arc, (None, ""))
        rows.append({"arc": arc_name(a.sentence, arc), f"{name_a} step": step_a, f"{name_a} moves": moves_a,
                     f"{name_b} step": step_b, f"{name_b} moves": moves_b,
                     "gold": "yes" if arc in a.sentence.gold_arcs else "no"})
    return pd.DataFrame(rows)


def step_counts(traces: Sequence[pc.Trace]) -> pd.DataFrame:
    """Per system: steps, arcs built, gold arcs among them, and whether the parse is complete."""
    return pd.DataFrame([{"system": t.system.name, "steps": len(t.transitions),
                          "arcs": len(t.final.unlabelled_arcs), "gold arcs": len(gold_built(t)),
                          "moves": " ".join(str(m) for m in t.transitions)} for t in traces])


def gold_built(trace: pc.Trace) -> list[Arc]:
    return [arc for arc in trace.final.unlabelled_arcs if arc in trace.sentence.gold_arcs]


def timing_figure(a: pc.Trace, b: pc.Trace, height: int = 380) -> go.Figure:
    """The step at which each arc is built, in each system: a point per arc; on the diagonal
    both systems build it at the same step, above it the second system builds it later."""
    steps_a, steps_b = arc_steps(a), arc_steps(b)
    both = [arc for arc in steps_a if arc in steps_b]
    fig = go.Figure()
    last = max(len(a.transitions), len(b.transitions))
    fig.add_trace(go.Scatter(x=[0, last], y=[0, last], mode="lines", name="same step",
                             line={"dash": "dot", "color": "#999999"}))
    fig.add_trace(go.Scatter(x=[steps_a[arc][0] for arc in both], y=[steps_b[arc][0] for arc in both],
                             mode="markers+text", text=[arc_name(a.sentence, arc) for arc in both],
                             textposition="top center", name="arc", marker={"size": 10}))
    fig.update_layout(title="When each arc is built", xaxis_title=f"step in {a.system.name}",
                      yaxis_title=f"step in {b.system.name}", height=height, margin={"t": 50})
    return fig
