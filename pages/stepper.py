"""The stepper: click transitions, watch the stack, the buffer and the arcs, see every move's cost.

The sidebar picks a sentence, a transition system and the oracles; the board shows one button
per move, the configuration drawn, and what the oracle thinks of every move.  The whole state
(sentence, system, oracles, moves) is in the URL, so a link reproduces it exactly.
"""

from __future__ import annotations

import urllib.parse
from functools import partial
from typing import NamedTuple

import streamlit as st

import parsing_core as pc
from parsing_core.model import MoveScore
from ui.navigation import run_through_app
from ui.stepper import models
from ui.stepper.downloads import drawing_downloads, history_downloads
from ui.stepper.link import BOARD, link_problems, load_state, save_state
from ui.views.cost_table import cost_frame, has_examples, policy_frame, styled
from ui.views.glossary import term
from ui.views.mistakes import MoveReview, said, summary, with_costs
from ui.views.model_view import (
    MODEL,
    model_frame,
    model_move,
    styled_model,
    with_model,
)
from ui.views.oracle_view import Completion, PolicyScores, Verdict
from ui.views.rules import marked_rules
from ui.views.safe_text import inert
from ui.views.sources import DEFAULT_KEY, is_shareable
from ui.views.state import StepperState
from ui.widgets import compute
from ui.widgets.board import (
    autoplay_settings,
    history_buttons,
    history_table,
    move_buttons,
    suggested_move,
)
from ui.widgets.checkpoints import ModelRef
from ui.widgets.pickers import (
    oracle_picker,
    sentence_caption,
    sentence_picker,
    system_picker,
    use_system,
)
from ui.widgets.picture import configuration_picture

POLICY_NAMES = {"sbr": "shift before reduce", "rbs": "reduce before shift", "none": "no tie-break"}
# Presenter mode: type a room can read from the back (Streamlit sets most sizes in px, so the
# main area's text, tables and buttons are enlarged one by one; the drawing has its own scale).
PRESENTER_CSS = ("<style>[data-testid='stMain'] :is(p, li, td, th, button p) { font-size: 20px; }"
                 "[data-testid='stMain'] [data-testid='stCaptionContainer'] p { font-size: 17px; }"
                 "[data-testid='stMain'] [data-testid='stMetricValue'] p { font-size: 2.4rem; }"
                 "[data-testid='stMain'] h1 { font-size: 2.2rem; padding-top: 0; }</style>")
SWITCH_TO = "stepper.switch_to"  # a system the board asked the sidebar's picker to switch to
KEYS_HELP = ("Keys: **S** shift · **L** left-arc · **A** right-arc · **E** reduce · **W** swap · "
             "**U** undo · **Y** redo · **O** oracle step · **H** hide or reveal the oracle")


def parse_key(state: StepperState) -> compute.Parse:
    return compute.Parse(state.sentence, state.system, state.options, state.labelled)


def current_trace(state: StepperState) -> tuple[StepperState, pc.Trace]:
    """The parse the state describes; a state that no longer makes sense falls back, with a message."""
    try:
        return state, compute.trace_of(parse_key(state), state.taken())
    except pc.ParsingCoreError as err:
        st.error(f"{inert(str(err))} — starting again from the default sentence.")
        state = StepperState(system=state.system, oracle=state.oracle, presenter=state.presenter,
                             hidden=state.hidden)
        return state, compute.trace_of(parse_key(state), ())


def score(trace: pc.Trace, done: Completion | None) -> None:
    """Arcs correct so far, and the best attachment score still reachable."""
    gold = trace.sentence
    if not gold.has_gold:
        st.caption("No gold tree: nothing to score.")
        return
    correct = sum(1 for a in trace.final.unlabelled_arcs if a in gold.gold_arcs)
    left, right = st.columns(2)
    left.metric("Arcs correct so far", f"{correct} of {gold.n}")
    if done is None:
        right.metric("Best UAS still reachable", "—", help="No oracle can finish this parse.")
        return
    title = "Best UAS still reachable" if done.exact else "UAS if the oracle finishes"
    right.metric(title, f"{done.correct / gold.n:.0%}", help=f"{done.correct} of {gold.n} arcs")
    how = "exact" if done.exact else "approximate: no exact oracle answers here"
    st.caption(f"{title}: the parse finished by following {done.oracle}'s {term('optimal moves')} from here "
               f"({how}).")


def oracle_table(trace: pc.Trace, verdicts: list[Verdict], scores: list[MoveScore] | None) -> None:
    """Every move with its cost, colour-coded, and the notes and warnings of each oracle; the
    model's probability and choice beside them when a model is loaded."""
    model_alone = scores is not None and not trace.sentence.has_gold  # "no gold" is said by its table
    for v in verdicts:
        if v.error and not model_alone:
            st.warning(f"**{inert(v.oracle)}:** {inert(v.error)}")
        for warning in v.warnings:
            st.warning(inert(warning))
        for note in v.notes:
            st.info(inert(note))
    answered = [v for v in verdicts if v.costs]
    model_note = ("  **model** = the model's probability for each possible move; ★ its choice; a label "
                  "is the one the model would give that arc."
                  if scores is not None else "")
    if not answered:
        if scores is not None and not trace.is_complete:
            st.table(styled_model(model_frame(trace, scores)), border="horizontal")
            st.caption("No gold tree, so no costs: only the model's view." + model_note)
        return
    frame = cost_frame(trace, answered)
    table = styled(frame) if scores is None else styled_model(styled(with_model(frame, scores)))
    st.table(table.hide(axis="index"), border="horizontal")
    labels = "  Costs are for the gold label; any other label costs 1 more." if trace.system.labelled else ""
    example = ("  **e.g.** marks an example: gold arcs one best parse from here builds and one best "
               "parse after the move does not (**gains**: the reverse); other best parses may differ."
               if has_examples(answered[0]) else "")
    st.caption(f"{term('Cost', 'cost')} = how many fewer {term('gold arcs')} the best parse still "
               f"{term('reachable')} holds after the move; ✓ {term('optimal')} moves cost least.  "
               "**builds** is the arc the move would add; **loses** says why a move costs (— : the oracle "
               "cannot tell)."
               + example + labels + model_note)


def policy_view(scores: PolicyScores) -> None:
    """Nederhof's own scores under his policy, apart from the costs and labelled as what they are."""
    with st.expander(f"Nederhof's scores, policy {scores.policy}"):
        st.dataframe(policy_frame(scores), hide_index=True)
        st.caption("ρ = the gold arcs of the best *canonical* computation that starts with the move: the "
                   f"policy ({POLICY_NAMES.get(scores.policy, scores.policy)}) keeps one way of building "
                   "each tree.  ★ marks the largest ρ, the move the policy takes (always an optimal one).  "
                   "ρ is not a cost: −∞ means no canonical computation, not a dead end; the costs above "
                   "count every way the parse can still finish.")


def mistake_said(reviews: list[MoveReview], taken: tuple[str, ...]) -> None:
    """Right after a costly move: what it cost and which gold arcs it lost."""
    if taken and len(reviews) >= len(taken) and reviews[len(taken) - 1].is_mistake:
        st.warning(f"**Your {inert(said(reviews[len(taken) - 1]))}.**", icon=":material/error:")


def cannot_build(parse: compute.Parse) -> None:
    """When the system cannot build the gold tree: why, the crossing arcs, a system that can."""
    note = compute.unbuildable_of(parse)
    if note is None:
        return
    best = f"{note.reachable} of {note.n} gold arcs" + ("" if note.exact else " (by an approximate oracle)")
    with st.container(border=True, key="stepper-unbuildable"):
        st.markdown(f"**{note.system} builds only {term('projective')} trees, and this gold tree is not "
                    "one:** "
                    f"{inert('; '.join(note.crossing))}.  The best any {note.system} parse can reach is "
                    f"{best}: that is the *Best UAS still reachable*, and no move can do better.")
        if note.suggestion and st.button(f"Switch to {note.suggestion}, which can build it",
                                         key="stepper.switch_system"):
            st.session_state[SWITCH_TO] = note.suggestion  # set before the sidebar's picker is drawn
            st.rerun()  # the whole page, sidebar included


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


def rules(parse: compute.Parse, trace: pc.Trace, oracle: str) -> None:
    """The system's moves as the seeds write them (and the oracle's cost rules, where it has
    them), the move just made highlighted."""
    frame = compute.rules_of(parse, oracle)
    has_costs = "cost" in frame.columns
    title = f"The rules of {trace.system.name}" + (f" and {oracle}'s costs" if has_costs else "")
    rules_box = st.expander(title, key="stepper.rules", on_change="rerun")
    if not rules_box.open:  # drawn only while open: a closed table would cost every click its drawing
        return
    with rules_box:
        last = trace.transitions[-1].kind if trace.transitions else None
        st.table(marked_rules(frame, last), border="horizontal", hide_index=True)
        note = ("σ|s0: the stack with top s0 (s1 below it); b|β: the buffer with front b.  "
                + ("▶ marks the move just made." if last else ""))
        if not has_costs:
            note += (f"  {oracle}'s costs are not countable arc by arc, so there is no rule to apply by "
                     "hand; goldberg-nivre (arc-eager, arc-hybrid) has one.")
        st.caption(note)


def oracle_section(parse: compute.Parse, taken: compute.Moves, trace: pc.Trace, verdicts: list[Verdict],
                   scores: list[MoveScore] | None, oracles: tuple[str, str], hidden: bool) -> None:
    """What the oracle says about every move (or that it is hidden), and Nederhof's own scores."""
    st.subheader("What the oracle says")
    with st.container(key="stepper-costs"):
        if hidden:
            st.info("The oracle is hidden: what would you play next?  **Reveal** it (key **H**) to see "
                    "every move's cost.", icon=":material/visibility_off:")
        elif trace.is_complete:
            st.markdown("No move is left to judge: the parse is over.")
        else:
            oracle_table(trace, verdicts, scores)
    for name in oracles if not hidden else ():
        policy = compute.policy_scores_of(parse, taken, name) if name else None
        if policy is not None:
            policy_view(policy)


def hide_button(hidden: bool) -> None:
    """Hide the oracle (costs, verdicts, the gold arcs in the picture) to ask the room, then reveal."""
    st.button("Reveal the oracle" if hidden else "Hide the oracle", key="stepper.hide", shortcut="H",
              icon=":material/visibility:" if hidden else ":material/visibility_off:",
              on_click=BOARD.change, args=(StepperState.toggle_hidden,), width="stretch",
              type="primary" if hidden else "secondary",
              help="Hide costs, verdicts and the gold arcs so the class can think first (key H)")


def share(state: StepperState) -> None:
    """The link that reproduces this state."""
    base = (st.context.url or "").split("?")[0]
    link = f"{base}?{urllib.parse.urlencode(state.to_query())}"
    st.code(link, language=None, wrap_lines=True)
    if not is_shareable(state.sentence):
        st.warning(f"This sentence is too long for a link; the link opens {DEFAULT_KEY} instead.")


class Choices(NamedTuple):
    """What the sidebar chose: the sentence, the parser and oracles, the model, autoplay, presenter."""

    sentence: str
    system: str
    options: tuple[str, ...]
    labelled: bool
    oracle: str
    compare: str
    presenter: bool
    model: ModelRef | None
    player: str  # who plays Oracle step and Play (an oracle, or the model)
    tie_break: str
    seconds: float
    input_problem: str | None  # what was wrong with a new sentence, shown on the board


@st.fragment
def board(choices: Choices) -> None:
    """Everything a click on the board changes, rerun alone on such a click (the sidebar is not
    rerun; its choices come in as ``choices``): the moves, the picture, the costs, the score,
    the history and the link."""
    sentence, system_name, options, labelled, oracle, compare, presenter = choices[:7]
    model, auto_oracle, tie_break, seconds, input_problem = choices[7:]
    state = BOARD.get().choose(sentence, system_name, options, labelled, oracle, compare, presenter)
    state, trace = current_trace(state)
    save_state(state)
    parse, taken, hidden = parse_key(state), state.taken(), state.hidden
    verdicts = [compute.verdict_of(parse, taken, name) for name in (oracle, compare) if name]
    reviews = compute.reviews_of(parse, state.moves, oracle) if trace.sentence.has_gold else []
    scores = models.scores_of(model, parse, taken) if model else None
    if auto_oracle == MODEL:
        suggestion = model_move(scores or [], state.labelled)
    else:
        suggestion = suggested_move(compute.verdict_of(parse, taken, auto_oracle), tie_break, len(taken))

    if input_problem:
        st.error(f"**The new sentence could not be read:** {inert(input_problem)}  \nThe board still shows "
                 "the previous sentence.", icon=":material/error:")
    caption_column, hide_column = st.columns([3, 1], vertical_alignment="center")
    caption_column.markdown(sentence_caption(trace.sentence))
    with hide_column:
        hide_button(hidden)
    cannot_build(parse)
    move_buttons(BOARD, trace, None if hidden else next((v for v in verdicts if v.costs), None))
    history_buttons(BOARD, suggestion, seconds, player=auto_oracle)
    if not hidden:
        mistake_said(reviews, taken)
    rules(parse, trace, oracle)
    if model:
        models.model_parse(BOARD, model, trace, parse, state.labelled)
    if not presenter:
        st.caption(KEYS_HELP)

    # On a projector the cost table stands beside the stack and buffer, so a 10-token parse fits one
    # 1920x1080 screen; at a desk it goes below the picture, beside the score.
    judged = partial(oracle_section, parse, taken, trace, verdicts, scores, (oracle, compare), hidden)
    dot = configuration_picture(parse, taken, oracle, presenter, hidden=hidden,
                                beside=judged if presenter else None)
    if presenter:
        score_column = st.container()
    else:
        drawing_downloads(dot)  # downloads are for a desk
        costs_column, score_column = st.columns([3, 2], gap="large")
        with costs_column:
            judged()
    with score_column:
        st.subheader("Score")
        if hidden:
            st.caption("Hidden with the oracle." if not trace.is_complete else
                       f"The parse is finished after {len(taken)} moves; reveal the oracle for the score.")
        elif trace.is_complete:
            finished(trace, reviews)
        else:
            score(trace, compute.completion_of(parse, taken, oracle))

    st.subheader("History")
    history = compute.history_of(parse, state.moves)
    if reviews and not hidden:
        history = with_costs(history, reviews)
    with st.container(key="stepper-history"):
        history_table(BOARD, history)
    st.caption("Click a row to jump to it; ↷ marks undone moves (redo plays them again)."
               + ("" if hidden or not reviews else f"  **COST** is what each move cost where it was made "
                  f"({oracle}); ✗ marks a mistake.") + "  The downloads hold the rows up to the current one"
               + ("" if hidden or not reviews else ": a mistake log") + ".")
    with st.container(horizontal=True):
        history_downloads(history.iloc[: state.cursor + 1])
        with st.popover("Share this state", icon=":material/link:", key="stepper.share"):
            share(state)


# -- the page ---------------------------------------------------------------------------------
run_through_app()
state = load_state()
st.title("Stepper")
for problem in link_problems():
    st.warning(f"The link could not be followed completely: {inert(problem)}")

if SWITCH_TO in st.session_state:  # the board asked for another system
    use_system("stepper", st.session_state.pop(SWITCH_TO))

with st.sidebar:
    st.header("Sentence")
    sentence, input_problem = sentence_picker("stepper.pick", state.sentence)
    st.header("Parser")
    system_name, options, labelled = system_picker("stepper", state.system, state.options, state.labelled)
    system = compute.system_of(system_name, options, labelled)
    oracle, compare = oracle_picker(system, "stepper", state.oracle, state.compare)
    st.header("Model")
    model = models.model_section(system_name, options)
    st.header("Autoplay")
    has_gold = compute.sentence_of(sentence).has_gold
    players = (pc.list_oracles(system) if has_gold or model is None else []) + ([MODEL] if model else [])
    auto_oracle, tie_break, seconds = autoplay_settings("stepper", players,
                                                        oracle if has_gold else players[0])
    if auto_oracle != (oracle if has_gold else players[0]):
        st.caption(f"Oracle step and Play follow **{auto_oracle}**, not the table's {oracle}.")
    st.session_state.setdefault("stepper.presenter", state.presenter)
    presenter = st.toggle("Presenter mode (larger type and drawing)", key="stepper.presenter")

if presenter:
    st.html(PRESENTER_CSS)
    st.set_page_config(initial_sidebar_state="collapsed")  # the board takes the whole projector

board(Choices(sentence, system_name, options, labelled, oracle, compare, presenter, model, auto_oracle,
              tie_break, seconds, input_problem))
