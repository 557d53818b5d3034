"""The four ways to give the stepper a sentence; each returns a sentence key, or None.

None means the input is not usable yet; the problem is shown where the user typed, written
for a person (a ``ParsingCoreError``'s message), never as a traceback, and kept for the page
(:func:`problem_of`) so the board can say it too, where a class looks.  User text is only ever
shown by widgets that print it as text.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import cast

import pandas as pd
import streamlit as st

import parsing_core as pc
from parsing_core.treebanks import check_folder
from server.settings import Settings, settings
from ui.views.safe_text import inert
from ui.views.sources import TREEBANK, TreebankRef, custom_key, sentence_from_key, treebank_key
from ui.widgets import limits
from ui.widgets.held import hold

MAX_UPLOAD_BYTES = 5_000_000
LENGTHS = (1, 120)  # the length filter's range
DEFAULT_LENGTHS = (5, 25)
MAX_LISTED = 2000


def start_from(prefix: str, key: str) -> None:
    """Set the inputs so that they show the sentence ``key`` names (the first run of a session)."""
    state = st.session_state
    if key.startswith(TREEBANK):
        ref = TreebankRef.parse(key)
        state[f"{prefix}.source"] = "treebank"
        state[f"{prefix}.treebank"] = f"{ref.name}:{ref.split}"
        state[f"{prefix}.folder"] = ref.folder or str(pc.data_dir() or "")
        state[f"{prefix}.lengths"] = LENGTHS
        state[f"{prefix}.index"] = ref.index
    elif key.startswith("custom:"):
        state[f"{prefix}.source"] = "conllu"
        state[f"{prefix}.conllu"] = pc.write_conllu([sentence_from_key(key)])
    else:
        state[f"{prefix}.source"] = "teaching"
        state[f"{prefix}.teaching"] = key


def report(prefix: str, message: str) -> None:
    """Show an input's problem where the user typed, and keep it for the page to show."""
    st.error(inert(message))
    st.session_state[f"{prefix}.problem"] = message


def problem_of(prefix: str) -> str | None:
    """The problem the inputs reported in this run (None if the input was usable)."""
    return st.session_state.get(f"{prefix}.problem")


def clear_problem(prefix: str) -> None:
    st.session_state.pop(f"{prefix}.problem", None)


# -- the teaching set ---------------------------------------------------------------------------
def teaching(prefix: str) -> str | None:
    sentences = {s.sent_id: s for s in pc.teaching_sentences() if s.sent_id}
    key = f"{prefix}.teaching"
    hold(key, next(iter(sentences)), sentences)
    chosen = st.selectbox("Teaching sentence", list(sentences), key=key,
                          format_func=lambda i: " ".join(sentences[i].words))
    st.caption(inert(sentences[chosen].source.metadata.get("note", "")))
    return chosen


# -- a treebank in the data directory -----------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """One treebank sentence as the list shows it."""

    index: int
    n: int
    projective: bool
    text: str

    def title(self) -> str:
        shape = "" if self.projective else ", non-projective"
        return f"{self.index}: {self.text[:70]}{'…' * (len(self.text) > 70)} ({self.n} tokens{shape})"


@st.cache_data(max_entries=32, show_spinner="Reading the treebank…")
def treebank_entries(name: str, split: str, lengths: tuple[int, int], nonprojective_only: bool,
                     folder: str | None = None) -> list[Entry]:
    """The sentences of a treebank within the length range (only non-projective ones, if asked)."""
    entries = []
    for i, s in enumerate(pc.load_treebank(name, split, folder)):
        if lengths[0] <= s.n <= lengths[1] and not (nonprojective_only and s.is_projective):
            entries.append(Entry(i, s.n, s.is_projective, " ".join(s.words)))
    return entries[:MAX_LISTED]


FOLDER_FIELD_ENV = Settings.variable("folder_field")  # "0": a deployment where nobody types a folder


def folder_field_on() -> bool:
    return settings().folder_field


def data_folder(prefix: str) -> Path | None:
    """The Data directory field (``PARSING_DATA_DIR`` until the user types another folder).

    Returns the folder, or None (and says why) when the field is empty, names no folder, or
    names one outside the folders the server allows (``PARSING_ALLOWED_DIRS``).  With
    ``PARSING_FOLDER_FIELD=0`` the field is shown but cannot be changed.
    """
    default = str(pc.data_dir() or "")
    locked = not folder_field_on()
    hold(f"{prefix}.folder", default, [default] if locked else None)
    hint = ("This server reads treebanks only from its data directory." if locked else
            "A folder of <name>-ud-<split>.conllu files (default: PARSING_DATA_DIR)")
    typed = st.text_input("Data directory", key=f"{prefix}.folder", help=hint, disabled=locked).strip()
    if not typed:
        st.info("Type the folder that holds your .conllu files, or set PARSING_DATA_DIR.")
        return None
    try:
        given = Path(typed).expanduser()
        folder = given if given == pc.data_dir() else check_folder(given)
    except pc.ParsingCoreError as err:
        report(prefix, str(err))
        return None
    if not folder.is_dir():
        report(prefix, f"There is no folder {typed}.")
        return None
    return folder


def treebank(prefix: str) -> str | None:
    path = data_folder(prefix)
    if path is None:
        return None
    folder = None if path == pc.data_dir() else str(path)  # the default stays out of links
    files = [f"{f.name}:{f.split}" for f in pc.list_treebanks(folder) if f.split]
    if not files:
        st.info("No treebanks found: type a folder of .conllu files above, or set PARSING_DATA_DIR.")
        return None
    english = [f for f in files if f.startswith("en_") and f.endswith(":dev")]
    hold(f"{prefix}.treebank", (english or files)[0], files)
    hold(f"{prefix}.lengths", DEFAULT_LENGTHS)
    hold(f"{prefix}.nonprojective", False)
    chosen = st.selectbox("Treebank", files, key=f"{prefix}.treebank",
                          format_func=lambda f: f.replace(":", " "))
    low, high = cast(tuple[int, int], st.slider("Length (tokens)", *LENGTHS, key=f"{prefix}.lengths"))
    only = st.checkbox("Only non-projective sentences", key=f"{prefix}.nonprojective")
    name, split = chosen.split(":")
    try:
        entries = {e.index: e for e in treebank_entries(name, split, (low, high), only, folder)}
    except pc.ParsingCoreError as err:
        report(prefix, str(err))
        return None
    if not entries:
        st.info("No sentence of this treebank passes the filter.")
        return None
    hold(f"{prefix}.index", next(iter(entries)), entries)
    index = st.selectbox(f"Sentence ({len(entries)} listed)", list(entries), key=f"{prefix}.index",
                         format_func=lambda i: entries[i].title())
    return treebank_key(name, split, index, folder)


# -- CoNLL-U, pasted or uploaded ------------------------------------------------------------------
def conllu(prefix: str) -> str | None:
    upload = st.file_uploader("Upload a .conllu file", type=["conllu", "txt"], key=f"{prefix}.upload")
    hold(f"{prefix}.conllu", "")
    text = st.text_area("… or paste CoNLL-U (ten tab-separated columns per word)", key=f"{prefix}.conllu",
                        height=160)
    if upload is not None and text.strip():
        st.info("The uploaded file is used; the pasted text is ignored until the file is removed.")
    try:
        source = uploaded_text(upload) if upload is not None else text
        if not source.strip():
            return None
        sentences = pc.read_conllu(source)
    except pc.ParsingCoreError as err:
        where = f"the file {upload.name}" if upload is not None else "the pasted text"
        report(prefix, f"{where}: {err}")
        return None
    index = 0
    if len(sentences) > 1:
        label = f"Sentence (1–{len(sentences)})"
        index = st.number_input(label, 1, len(sentences), key=f"{prefix}.which") - 1
    try:
        return custom_key(sentences[index])
    except pc.ParsingCoreError as err:
        report(prefix, f"sentence {index + 1}: {err}")
        return None


def uploaded_text(upload: object) -> str:
    if refused := limits.upload_refused(upload):
        raise pc.ParsingCoreError(refused)
    data = upload.getvalue()  # type: ignore[attr-defined]
    if len(data) > MAX_UPLOAD_BYTES:
        raise pc.ParsingCoreError(f"the file is larger than {MAX_UPLOAD_BYTES // 1_000_000} MB")
    try:
        return str(data.decode("utf-8-sig"))
    except UnicodeDecodeError as err:
        raise pc.ParsingCoreError(f"the file is not UTF-8 text ({err.reason} at byte {err.start})") from None


# -- typed words with a head table --------------------------------------------------------------
def typed(prefix: str) -> str | None:
    hold(f"{prefix}.words", "")
    words = st.text_input("Words, separated by spaces", key=f"{prefix}.words",
                          placeholder="He sent her a letter .").split()
    if not words:
        return None
    n = len(words)
    table = pd.DataFrame({"id": range(1, n + 1), "word": words, "head": pd.array([None] * n, dtype="Int64"),
                          "label": [""] * n})
    columns = {
        "id": st.column_config.NumberColumn("id", width=40),
        "word": st.column_config.TextColumn("word", width="medium"),
        "head": st.column_config.NumberColumn("head", min_value=0, max_value=n, step=1, width=64,
                                              help="the id of the word's head; 0 = ROOT"),
        "label": st.column_config.TextColumn("label", width="medium", help="optional: all or none"),
    }
    st.caption("Set each word's head (0 = ROOT) and, if you like, its label:")
    edited = st.data_editor(table, key=f"{prefix}.tree", disabled=["id", "word"], hide_index=True,
                            column_config=columns)
    try:
        sentence = typed_sentence(words, edited)
        key = custom_key(sentence)
    except pc.ParsingCoreError as err:
        report(prefix, f"the typed sentence: {err}")
        return None
    st.caption("No heads yet: no gold tree, so no costs." if not sentence.has_gold else
               f"✓ a tree ({'projective' if sentence.is_projective else 'non-projective'}).")
    return key


def typed_sentence(words: list[str], table: pd.DataFrame) -> pc.Sentence:
    """The sentence a head table describes: no heads = no gold tree; labels only if all are given."""
    heads = [None if pd.isna(h) else int(h) for h in table["head"]]
    labels = [str(x).strip() for x in table["label"].fillna("")]
    if all(h is None for h in heads):
        return pc.Sentence.from_heads(words, None)
    missing = [i for i, h in enumerate(heads, 1) if h is None]
    if missing:
        raise pc.TreeError(f"word {missing[0]} ({words[missing[0] - 1]}) has no head yet")
    if any(any(ch.isspace() for ch in x) for x in labels):
        raise pc.TreeError("a label cannot contain spaces")
    return pc.Sentence.from_heads(words, [h for h in heads if h is not None], labels if all(labels) else None)
