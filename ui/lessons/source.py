"""The lessons, loaded once per server process; each step's question item, made once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import streamlit as st

import parsing_core.exercises as ex
import parsing_core.lessons as pl
from server.settings import Settings, settings

FOLDER_VARIABLE = Settings.variable("lessons_dir")  # another folder of lesson files (default: assets/lessons)


def folder() -> str:
    return str(settings().lessons_dir)


@st.cache_resource(show_spinner=False)
def loaded(path: str) -> tuple[list[pl.Lesson], list[pl.Problem]]:
    return pl.load_lessons(pl.lesson_files(Path(path)))


def lessons() -> tuple[list[pl.Lesson], list[pl.Problem]]:
    """Every lesson that loads from the lessons folder, and a problem for each file that does not."""
    return loaded(folder())


def lesson_by_id(lesson_id: str) -> pl.Lesson:
    return next(lesson for lesson in lessons()[0] if lesson.id == lesson_id)


def item_of(lesson_id: str, step: int) -> tuple[ex.Item[Any] | None, str]:
    """The step's question as an exercise item, or None and why it cannot be asked."""
    return made(folder(), lesson_id, step)


@st.cache_resource(max_entries=128, show_spinner=False)
def made(path: str, lesson_id: str, step: int) -> tuple[ex.Item[Any] | None, str]:
    """:func:`item_of`, cached per lessons folder."""
    lesson = lesson_by_id(lesson_id)
    at = lesson.steps[step - 1]
    try:
        return pl.item_of(lesson, at, pl.Reached(lesson, at)), ""
    except (pl.LessonError, ex.ExerciseError) as error:
        return None, str(error)
