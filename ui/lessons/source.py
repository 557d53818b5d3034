"""The lessons, loaded once per server process; each step's question item, made once."""

from __future__ import annotations

from typing import Any

import streamlit as st

import parsing_core.exercises as ex
import parsing_core.lessons as pl


@st.cache_resource(show_spinner=False)
def lessons() -> tuple[list[pl.Lesson], list[pl.Problem]]:
    """Every lesson that loads from ``assets/lessons``, and a problem for each file that does not."""
    return pl.load_lessons(pl.lesson_files())


def lesson_by_id(lesson_id: str) -> pl.Lesson:
    return next(lesson for lesson in lessons()[0] if lesson.id == lesson_id)


@st.cache_resource(max_entries=128, show_spinner=False)
def item_of(lesson_id: str, step: int) -> tuple[ex.Item[Any] | None, str]:
    """The step's question as an exercise item, or None and why it cannot be asked."""
    lesson = lesson_by_id(lesson_id)
    at = lesson.steps[step - 1]
    try:
        return pl.item_of(lesson, at, pl.Reached(lesson, at)), ""
    except pl.LessonError as error:
        return None, str(error)
    except ex.ExerciseError as error:
        return None, str(error)
