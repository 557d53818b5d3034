"""The stepper's trained model: pick a checkpoint, load it once, score configurations (cached).

A model comes from a finished run of the Train page (its folder holds ``model.pt``) or from
an uploaded checkpoint file.  Loading goes through :func:`parsing_core.load_checkpoint`
(``weights_only``: a file can never run code), and a bad file says why.  A loaded model is
cached per file and modification time; the BiLSTM reads each sentence once
(:class:`parsing_core.model.Scorer`), and each configuration's scores are cached like the
oracle's costs, so stepping back and forth costs nothing.
"""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import streamlit as st

import parsing_core as pc
from parsing_core.model import MoveScore
from ui.stepper.model_view import fit_problem, parsed_sentence
from ui.views.safe_text import inert
from ui.widgets import checkpoints, compute, limits
from ui.widgets.board import Board, play_all
from ui.widgets.checkpoints import ModelRef, load
from ui.widgets.held import hold
from ui.widgets.pickers import use_system

if TYPE_CHECKING:
    from parsing_core.checkpoint import Checkpoint
    from parsing_core.model import Scorer

NONE, UPLOAD = "", "upload"
MAX_CHECKPOINT_BYTES = 200_000_000


@st.cache_resource(max_entries=16, show_spinner=False)
def scorer_of(ref: ModelRef, sentence_key: str) -> Scorer:
    """The model bound to one sentence (the BiLSTM has read it)."""
    return load(ref.path, ref.stamp).parser.scorer(compute.sentence_of(sentence_key))


@st.cache_data(max_entries=512, show_spinner=False)
def scores_of(ref: ModelRef, parse: compute.Parse, moves: compute.Moves) -> list[MoveScore]:
    """The model's score for every move in the configuration after ``moves``."""
    return scorer_of(ref, parse.sentence).scores(compute.trace_of(parse, moves).final)


def saved_upload(data: bytes) -> Path:
    """An uploaded checkpoint as a file (named by its content, so the same upload loads once)."""
    if len(data) > MAX_CHECKPOINT_BYTES:
        raise pc.ParsingCoreError(f"the file is larger than {MAX_CHECKPOINT_BYTES // 1_000_000} MB")
    folder = Path(tempfile.gettempdir()) / "parsing_uploads"
    folder.mkdir(exist_ok=True)
    path = folder / f"{hashlib.sha256(data).hexdigest()[:32]}.pt"
    if not path.exists():
        path.write_bytes(data)
    return path


def model_picker(prefix: str = "stepper.model") -> tuple[ModelRef, Checkpoint] | None:
    """The model picker: no model, a finished run of the Train page, or an uploaded checkpoint."""
    runs = {r.path: r for r in checkpoints.finished_runs()}
    choices = [NONE, *runs, UPLOAD]
    key = f"{prefix}.choice"
    hold(key, NONE, choices)

    def title(choice: str) -> str:
        if choice == NONE:
            return "no model"
        return "upload a checkpoint (.pt)…" if choice == UPLOAD else runs[choice].shown

    choice = st.selectbox("Trained model", choices, key=key, format_func=title,
                          help="Finished runs of the Train page, or a checkpoint file from "
                               "python -m parsing_core.train")
    if choice == NONE:
        return None
    if choice == UPLOAD:
        upload = st.file_uploader("Checkpoint", type=["pt"], key=f"{prefix}.upload")
        if upload is None:
            return None
        if refused := limits.upload_refused(upload):
            st.error(refused)
            return None
        try:
            path = saved_upload(upload.getvalue())
        except (pc.ParsingCoreError, OSError) as err:
            st.error(inert(str(err)))
            return None
        ref = ModelRef(upload.name, str(path), path.stat().st_mtime)
    else:
        ref = runs[choice]
    try:
        checkpoint = load(ref.path, ref.stamp)
    except pc.ParsingCoreError as err:
        st.error(inert(str(err)))
        return None
    st.caption(summary(checkpoint))
    return ref, checkpoint


def summary(checkpoint: Checkpoint) -> str:
    """One line on what the model is: system, inputs, how it was trained, how well."""
    parser, train, info = checkpoint.parser, checkpoint.train_config, checkpoint.info
    how = f", {train.regime} training with {train.oracle}" if train else ""
    data = f" on {info['data']}" if info.get("data") else ""
    score = ""
    if isinstance(info.get("test_uas"), int | float):
        score = f"; test UAS {100 * info['test_uas']:.1f} %"
    labels = "labelled" if parser.labelled else "unlabelled"
    return inert(f"{parser.system_name}, {labels}, {parser.config.inputs}{how}{data}{score} "
                 f"(runs on {parser.device.type})")


# -- the stepper's model widgets ------------------------------------------------------------
def model_section(system_name: str, options: tuple[str, ...], key: str = "stepper") -> ModelRef | None:
    """The settings' trained model, if one is chosen and fits the system (else say why, and offer
    to switch the system picker ``key`` to the model's system)."""
    picked = model_picker(f"{key}.model")
    if picked is None:
        return None
    ref, checkpoint = picked
    wanted = checkpoint.parser.system_name
    problem = fit_problem(wanted, system_name, options)
    if problem is None:
        return ref
    st.warning(problem)
    st.button(f"Switch the stepper to {wanted}", key=f"{key}.model.switch", on_click=use_system,
              args=(key, wanted))
    return None


def finish_with_model(board: Board, ref: ModelRef, parse: compute.Parse, labelled: bool) -> None:
    """Callback: let the model play every remaining move on ``board``."""
    trace = compute.trace_of(parse, board.get().taken())
    scorer = scorer_of(ref, parse.sentence)
    done = pc.run_from(trace, scorer.choose).transitions[len(trace.transitions):]
    board.change(play_all(tuple(str(t) if labelled and t.label else t.kind for t in done)))


def model_parse(board: Board, ref: ModelRef, trace: pc.Trace, parse: compute.Parse, labelled: bool) -> None:
    """The model's buttons: finish the parse; once finished, download the tree as CoNLL-U."""
    left, right = st.columns(2)
    left.button("Parse to the end with the model", key=f"{board.key}.model.finish",
                disabled=trace.is_complete, on_click=finish_with_model, args=(board, ref, parse, labelled),
                width="stretch")
    parser = load(ref.path, ref.stamp).parser
    unknown = parser.vocab.unknown_words(trace.sentence)
    if unknown:
        shown = ", ".join(unknown[:8]) + (" …" if len(unknown) > 8 else "")
        st.warning(f"The model never saw {len(unknown)} of this sentence's {trace.sentence.n} words in "
                   f"training ({inert(shown)}); it reads each as “unknown”, so its confident-looking "
                   "probabilities rest on the other words and the tags.", icon=":material/help:")
    if parser.config.upos_dim and not trace.sentence.upos:
        st.caption("This model reads UPOS tags and this sentence has none: it sees every tag as "
                   "unknown, so expect more mistakes than on a treebank sentence.")
    if trace.is_complete:
        tree = parsed_sentence(parser, trace)
        with right:
            st.download_button("This parse as CoNLL-U", pc.write_conllu([tree]), file_name="parse.conllu",
                               mime="text/plain", key=f"{board.key}.model.conllu", on_click="ignore",
                               width="stretch")
