"""The Stepper's panels below the board: the end of a parse, Nederhof's own scores.

Each is drawn only when it has something to say (a finished parse, an oracle with a policy), so
a click in the middle of a parse sends the browser the board alone.
"""

from __future__ import annotations

import streamlit as st

import parsing_core as pc
from ui.views.cost_table import policy_frame
from ui.views.mistakes import MoveReview, said, summary
from ui.views.oracle_view import PolicyScores
from ui.views.safe_text import inert
from ui.widgets import compute

POLICY_NAMES = {"sbr": "shift before reduce", "rbs": "reduce before shift", "none": "no tie-break"}


def finished(trace: pc.Trace, reviews: list[MoveReview]) -> None:
    """The end of a parse: arcs correct, UAS (and LAS), the mistakes made and what each cost."""
    st.success(f"The parse is finished after {len(trace.transitions)} moves.")
    if not trace.sentence.has_gold:
        return
    done = summary(trace, reviews[: len(trace.transitions)])
    left, right = st.columns(2)
    left.metric("UAS", f"{done.uas:.0%}", help=f"{done.correct} of {done.n} words got their gold head")
    if done.las is not None:
        right.metric("LAS", f"{done.las:.0%}",
                     help=f"{done.labelled_correct} of {done.n} with the gold head and label")
    if not done.mistakes:
        st.markdown("No mistakes: every move was optimal.")
        return
    lines = "\n".join(f"- {inert(said(r))}" for r in done.mistakes)
    st.markdown(f"**{len(done.mistakes)} costly move{'s' * (len(done.mistakes) > 1)}** "
                f"(together they cost {done.total_cost:g} gold arc{'s' * (done.total_cost != 1)}):\n{lines}")


def policy_view(scores: PolicyScores) -> None:
    """Nederhof's own scores under his policy, apart from the costs and labelled as what they are."""
    with st.expander(f"Nederhof's scores, policy {scores.policy}"):
        st.dataframe(policy_frame(scores), hide_index=True)
        st.caption("ρ = the gold arcs of the best *canonical* computation that starts with the move: the "
                   f"policy ({POLICY_NAMES.get(scores.policy, scores.policy)}) keeps one way of building "
                   "each tree.  ★ marks the largest ρ, the move the policy takes (always an optimal one).  "
                   "ρ is not a cost: −∞ means no canonical computation, not a dead end; the costs above "
                   "count every way the parse can still finish.")


def policy_views(parse: compute.Parse, taken: compute.Moves, oracles: tuple[str, str]) -> None:
    """Nederhof's own scores, for each oracle shown that has them."""
    for name in oracles:
        policy = compute.policy_scores_of(parse, taken, name) if name else None
        if policy is not None:
            policy_view(policy)
