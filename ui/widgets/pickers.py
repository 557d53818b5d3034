"""Choosers any page uses: which sentence, which system, which oracles.  Each returns the choice.

Widget keys start with the ``key`` given, so a chooser can appear twice on a page.  A chooser
whose widgets have no value yet (the first run of a session) starts them from the values it is
given, which may come from a shared link.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import streamlit as st

import parsing_core as pc
from parsing_core.rl.oracle import run_of
from ui.views.safe_text import inert
from ui.views.state import StepperState, default_oracle, system_options
from ui.widgets import sentence_inputs
from ui.widgets.board import Board
from ui.widgets.dqn_runs import run_title
from ui.widgets.held import hold

SOURCES: dict[str, str] = {
    "teaching": "Teaching set", "treebank": "Treebank", "conllu": "CoNLL-U", "typed": "Type it",
}
STEPPER = Board("stepper")  # the Stepper's board (ui.stepper.link.BOARD), which a DQN run is put on
OPTION_TITLES = {"root_last": "ROOT at the end", "single_root": "a single root (ROOT takes one dependent)"}


def sentence_picker(key: str, current: str) -> tuple[str, str | None]:
    """Pick a sentence: teaching set, treebank, pasted or uploaded CoNLL-U, or typed words.

    Returns the chosen sentence key and the input's problem (None if there is none); while the
    input is unusable, the ``current`` key with the problem, for the page to show on the board.
    """
    if f"{key}.source" not in st.session_state:
        sentence_inputs.start_from(key, current)
    hold(f"{key}.source", "teaching", SOURCES)
    source = st.radio("Sentence from", list(SOURCES), format_func=SOURCES.__getitem__,
                      key=f"{key}.source", horizontal=True)
    choose: dict[str, Callable[[str], str | None]] = {
        "teaching": sentence_inputs.teaching, "treebank": sentence_inputs.treebank,
        "conllu": sentence_inputs.conllu, "typed": sentence_inputs.typed,
    }
    sentence_inputs.clear_problem(key)
    return choose[source](key) or current, sentence_inputs.problem_of(key)


def system_picker(key: str, system: str, options: tuple[str, ...] = (), labelled: bool = False,
                  with_options: bool = True) -> tuple[str, tuple[str, ...], bool]:
    """Pick a transition system and, ``with_options``, its options and labelled arcs; returns
    (name, options, labelled), starting from the values given."""
    defaults: dict[str, object] = {f"{key}.system": system}
    if with_options:
        defaults[f"{key}.labelled"] = labelled
        defaults |= {f"{key}.opt.{o}": o in options for o in system_options(system)}
    for name, value in defaults.items():
        hold(name, value)
    name = st.selectbox("Transition system", pc.list_systems(), key=f"{key}.system")
    st.caption(pc.get_system(name).title)  # below, not in the box: a long title would be cut off
    if not with_options:
        return name, (), False
    chosen = tuple(o for o in system_options(name)
                   if st.toggle(OPTION_TITLES.get(o, o), key=f"{key}.opt.{o}"))
    labelled = st.toggle("Labelled arcs (pick a label for each arc)", key=f"{key}.labelled")
    return name, chosen, labelled


def use_system(key: str, name: str) -> None:
    """Callback: put the system picker ``key`` on ``name``, its options off."""
    st.session_state[f"{key}.system"] = name
    for widget in [k for k in st.session_state if str(k).startswith(f"{key}.opt.")]:
        st.session_state[widget] = False


DQN_SYSTEM = "arc-standard"  # the only system the DQN oracle answers for


def use_dqn(oracle: str, board: Board = STEPPER) -> None:
    """Put the Stepper on arc-standard with the DQN oracle ``oracle`` (``dqn:<run>``) and the exact
    oracle beside it, on the sentence it shows (from its start); the next visit shows it."""
    state = board.get() if board.started() else StepperState()
    board.set(replace(state, system=DQN_SYSTEM, options=(), labelled=False, oracle=oracle, compare="exact",
                        moves=(), cursor=0, hidden=False))
    restart_pickers("stepper")


def restart_pickers(key: str, sentence: bool = False) -> None:
    """Have the pickers under ``key`` start again from the values the page gives them (they hold
    theirs: :mod:`ui.widgets.held`): the parser's (system, its options, labelled arcs, the oracles)
    and, with ``sentence``, the sentence picker's (an uploaded file stays: it is the browser's)."""
    names = {f"{key}.{name}" for name in ("system", "oracle", "compare", "labelled")}
    groups = (f"{key}.opt.", f"{key}.pick.") if sentence else (f"{key}.opt.",)
    for widget in [k for k in st.session_state if str(k) in names or str(k).startswith(groups)]:
        if not str(widget).endswith(".upload"):
            del st.session_state[widget]


def oracle_picker(system: pc.TransitionSystem, key: str, oracle: str = "", compare: str | None = "",
                  names: list[str] | None = None, default: str | None = None) -> tuple[str, str]:
    """Pick an oracle and, unless ``compare`` is None, a second one to compare with; returns
    their names ("" = none).  ``names`` are the oracles offered (all of the system's if None);
    the first run starts on ``oracle`` if offered, else on ``default`` (else the library's first
    choice for the system, :func:`ui.views.state.default_oracle`)."""
    names = names if names is not None else pc.list_oracles(system)
    main, other = f"{key}.oracle", f"{key}.compare"
    fallback = default if default in names else default_oracle(system)
    hold(main, oracle if oracle in names else fallback if fallback in names else names[0], names)

    def title(name: str) -> str:
        run = run_of(name)
        return f"dqn · {run_title(run)}" if run else name or "(none)"

    def trust(name: str) -> None:  # below the box, where it is never cut off
        st.caption(f"{name}: {pc.get_oracle(system, name).exactness}")

    chosen = st.selectbox("Oracle", names, key=main, format_func=title)
    trust(chosen)
    if compare is None:
        return chosen, ""
    if st.session_state.get(other, "") not in ["", *names]:
        st.session_state[other] = ""
    hold(other, compare if compare in names else "")
    second = st.selectbox("Compare with", ["", *names], key=other, format_func=title,
                          help="A second oracle's costs beside the first; disagreements are flagged.")
    if second:
        trust(second)
    return chosen, second


def sentence_caption(sentence: pc.Sentence) -> str:
    """Markdown naming the sentence, its length and whether its gold tree is projective (user text inert)."""
    words = inert(" ".join(sentence.words))
    if not sentence.has_gold:
        return f"“{words}” — {sentence.n} tokens, no gold tree"
    shape = "projective" if sentence.is_projective else "non-projective"
    return f"“{words}” — {sentence.n} tokens, {shape} gold tree"
