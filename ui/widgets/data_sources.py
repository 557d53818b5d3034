"""Where a page's sentences come from: synthetic, a data directory, or a UD treebank downloaded by
name (the Train page offers all three; the Oracle lab the last two).

* **synthetic** — a toy treebank generated on the spot (no files, no internet), with the
  share of non-projective sentences the user sets;
* **data directory** — a folder of ``<name>-ud-<split>.conllu`` files: ``PARSING_DATA_DIR``
  by default, or any folder typed in;
* **Universal Dependencies** — a treebank named by its code (``en_lines``, ``la_perseus``),
  downloaded once with a progress bar and kept in the cache (``PARSING_CACHE_DIR``).

:func:`training_data` returns a :class:`DataChoice`, or None while there is nothing to train on
(the reason is shown where the user looks).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import streamlit as st

import parsing_core as pc
from parsing_core.treebanks import SPLITS, default_cache_dir, treebank_code
from ui.views.safe_text import inert
from ui.widgets.sentence_inputs import data_folder

SOURCES = {"synthetic": "synthetic (offline)", "folder": "data directory", "ud": "Universal Dependencies"}


@dataclass(frozen=True)
class DataChoice:
    data: str  # "synthetic" or a treebank name
    folder: str | None = None  # the treebank's folder (None: the data directory)
    nonprojective: float = 0.3  # for synthetic data


def training_data(prefix: str = "train", nonprojective: float = 0.3) -> DataChoice | None:
    source = st.radio("Training data", list(SOURCES), format_func=SOURCES.__getitem__, horizontal=True,
                      key=f"{prefix}.source")
    if source == "synthetic":
        rate = st.slider("Non-projective sentences", 0.0, 0.9, nonprojective, 0.1, key=f"{prefix}.rate",
                         help="The dynamic oracle's advantage grows with this share.")
        return DataChoice("synthetic", None, rate)
    if source == "folder":
        return from_folder(prefix)
    return from_ud(prefix)


def trainable_names(folder: str | Path) -> list[str]:
    """Treebanks in ``folder`` that have a train split."""
    return sorted({f.name for f in pc.list_treebanks(folder) if f.split == "train"})


def from_folder(prefix: str) -> DataChoice | None:
    folder = data_folder(prefix)
    if folder is None:
        return None
    names = trainable_names(folder)
    if not names:
        st.warning("This folder holds no <name>-ud-train.conllu file.")
        return None
    name = st.selectbox("Treebank", names, key=f"{prefix}.data")
    return DataChoice(name, str(folder))


def from_ud(prefix: str) -> DataChoice | None:
    code = st.text_input("Treebank code", "en_lines", key=f"{prefix}.ud",
                         help="As in UD file names: en_lines, la_perseus, de_gsd, … or UD_German-GSD").strip()
    if not code:
        return None
    cache = default_cache_dir()
    try:
        name = treebank_code(code)
    except pc.ParsingCoreError as err:
        st.error(inert(str(err)))
        return None
    if name in trainable_names(cache):
        st.caption(f"{inert(name)} is downloaded (in {inert(str(cache))}).")
        return DataChoice(name, str(cache))
    if st.button(f"Download {code}", key=f"{prefix}.download"):
        if download(code, cache):
            return DataChoice(name, str(cache))
    return None


def download(code: str, cache: Path) -> bool:
    """Train, dev and test with a progress bar; dev and test may be missing, train may not."""
    bar = st.progress(0.0, text="starting…")
    for split in SPLITS:
        def show(done: int, total: int | None, split: str = split) -> None:
            fraction = min(done / total, 1.0) if total else 0.0
            size = f" of {total / 1e6:.1f}" if total else ""
            bar.progress(fraction, text=f"{split}: {done / 1e6:.1f} MB{size}")
        try:
            pc.download_treebank(code, split, cache_dir=cache, progress=show)
        except pc.ParsingCoreError as err:
            if split == "train":
                bar.empty()
                st.error(inert(str(err)))
                return False
            st.info(f"No {split} split: {inert(str(err))}")
    bar.progress(1.0, text="downloaded")
    return True
