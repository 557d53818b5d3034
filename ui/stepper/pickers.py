"""The stepper's choosers: which sentence, which system, which oracles.  Each returns the choice.

Widget keys start with a prefix, so a chooser could appear twice on a page.  A chooser whose
widgets have no value yet (the first run of a session) starts them from the state it is
given, which may come from a shared link.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

import parsing_core as pc
from ui.views.safe_text import inert
from ui.views.state import StepperState, default_oracle, system_options
from ui.widgets import sentence_inputs

SOURCES: dict[str, str] = {
    "teaching": "Teaching set", "treebank": "Treebank", "conllu": "CoNLL-U", "typed": "Type it",
}
OPTION_TITLES = {"root_last": "ROOT at the end", "single_root": "a single root (ROOT takes one dependent)"}


def sentence_picker(current: str, prefix: str = "stepper.pick") -> str:
    """Pick a sentence: teaching set, treebank, pasted or uploaded CoNLL-U, or typed words.

    Returns the chosen sentence key; while the input is unusable (its problem is shown), the
    ``current`` key.
    """
    if f"{prefix}.source" not in st.session_state:
        sentence_inputs.start_from(prefix, current)
    source = st.radio("Sentence from", list(SOURCES), format_func=SOURCES.__getitem__,
                      key=f"{prefix}.source", horizontal=True)
    choose: dict[str, Callable[[str], str | None]] = {
        "teaching": sentence_inputs.teaching, "treebank": sentence_inputs.treebank,
        "conllu": sentence_inputs.conllu, "typed": sentence_inputs.typed,
    }
    return choose[source](prefix) or current


def system_picker(state: StepperState, prefix: str = "stepper") -> tuple[str, tuple[str, ...], bool]:
    """Pick a transition system, its options and labelled arcs; returns (name, options, labelled)."""
    defaults = {f"{prefix}.system": state.system, f"{prefix}.labelled": state.labelled}
    defaults |= {f"{prefix}.opt.{o}": o in state.options for o in system_options(state.system)}
    for key, value in defaults.items():
        st.session_state.setdefault(key, value)
    name = st.selectbox("Transition system", pc.list_systems(), key=f"{prefix}.system",
                        format_func=lambda n: f"{n} — {pc.get_system(n).title}")
    options = tuple(o for o in system_options(name)
                    if st.toggle(OPTION_TITLES.get(o, o), key=f"{prefix}.opt.{o}"))
    labelled = st.toggle("Labelled arcs (pick a label for each arc)", key=f"{prefix}.labelled")
    return name, options, labelled


def oracle_picker(system: pc.TransitionSystem, state: StepperState,
                  prefix: str = "stepper") -> tuple[str, str]:
    """Pick an oracle, and optionally a second one to compare with; returns their names ("" = none)."""
    names = pc.list_oracles(system)
    main, other = f"{prefix}.oracle", f"{prefix}.compare"
    if st.session_state.get(main) not in names:
        st.session_state[main] = state.oracle if state.oracle in names else default_oracle(system)
    if st.session_state.get(other, "") not in ["", *names]:
        st.session_state[other] = ""
    st.session_state.setdefault(other, state.compare if state.compare in names else "")

    def title(name: str) -> str:
        return f"{name} — {pc.get_oracle(system, name).exactness}" if name else "(none)"

    oracle = st.selectbox("Oracle", names, key=main, format_func=title)
    compare = st.selectbox("Compare with", ["", *names], key=other, format_func=title,
                           help="A second oracle's costs beside the first; disagreements are flagged.")
    return oracle, compare


def sentence_caption(sentence: pc.Sentence) -> str:
    """Markdown naming the sentence, its length and whether its gold tree is projective (user text inert)."""
    words = inert(" ".join(sentence.words))
    if not sentence.has_gold:
        return f"“{words}” — {sentence.n} tokens, no gold tree"
    shape = "projective" if sentence.is_projective else "non-projective"
    return f"“{words}” — {sentence.n} tokens, {shape} gold tree"
