"""A lesson step's words: the text, what comes once its question is answered, the footnote, and the
end of the lesson.

On a question step the learner first reads only the ``text``; the explanation (``after``), the
"Look at" line and the claims the oracles checked appear once the question is answered or the
answer is shown, since each of them would give the answer away.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

import parsing_core as pc
import parsing_core.lessons as pl
from ui.lessons.lesson_view import claim_words, step_sources
from ui.views.safe_text import inert


def step_text(step: pl.Step) -> None:
    """What the learner reads first (on a question step: before answering)."""
    with st.container(key="lessons-text"):
        st.markdown(step.text)


def explanation(step: pl.Step) -> None:
    """The explanation, what to look at, the highlighted move and the claims the oracles checked."""
    with st.container(key="lessons-after"):
        if step.after:
            st.markdown(step.after)
        if step.look is not None:
            st.markdown(f":material/visibility: **Look at:** {inert(step.look.text)}")
        if step.highlight and step.shows_board:
            st.caption(f"**{pc.Transition(step.highlight).name}** is outlined on the board.")
        if step.claims:
            claims = "; ".join(inert(claim_words(c)) for c in step.claims)
            st.caption(f"Checked by the oracles: {claims}.")


def footnote(lesson: pl.Lesson, step: pl.Step) -> None:
    """Where the step's facts come from, small, at the bottom."""
    sources = step_sources(lesson, step)
    if sources:
        st.caption(f"Sources: {inert(sources)}.")


def lesson_end(lesson: pl.Lesson, following: pl.Lesson | None, go: Callable[..., None]) -> None:
    """The one-line recap, and the way on: the next lesson, or the list after the last."""
    with st.container(border=True, key="lessons-end"):
        st.markdown(f"**In one line.** {inert(lesson.recap)}")
        if lesson.references:
            st.caption("Read more: " + "; ".join(inert(r.citation) for r in lesson.references) + ".")
        ahead, back = st.columns([2, 1])
        if following is not None:
            ahead.button(f"Next lesson: {following.title}", key="lessons.next_lesson", type="primary",
                         on_click=go, args=(following.id,), icon=":material/arrow_forward:", width="stretch")
        else:
            ahead.markdown("That was the last lesson.")
        back.button("All lessons", key="lessons.end", on_click=go, args=(None,), width="stretch")
