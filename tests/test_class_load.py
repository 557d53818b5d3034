"""The class benchmark without browsers (``benchmarks.class_load``): how it reads Streamlit's
messages and clicks, and a class of two on a real server answered without a failure."""

from __future__ import annotations

import asyncio
import json
import math
import os
import subprocess
import time
from pathlib import Path

import pytest
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from benchmarks.class_load import RESET, STEP, Row, Session, StudentError, View, measure, stream_url, words
from benchmarks.common import run_async
from benchmarks.load import chromium_cpu, servers


def button(label: str, widget_id: str, fragment: str = "", disabled: bool = False) -> ForwardMsg:
    msg = ForwardMsg()
    msg.delta.fragment_id = fragment
    msg.delta.new_element.button.label = label
    msg.delta.new_element.button.id = widget_id
    msg.delta.new_element.button.disabled = disabled
    return msg


def finished(status: int) -> ForwardMsg:
    msg = ForwardMsg()
    msg.script_finished = status  # type: ignore[assignment]
    return msg


def test_a_control_is_found_by_its_words() -> None:
    assert words("⟲ Reset") == RESET and words("Oracle step") == STEP and words("↶ Undo") == "Undo"


def test_the_view_notes_buttons_with_their_fragment_the_page_and_its_query() -> None:
    view, nav, info = View(), ForwardMsg(), ForwardMsg()
    nav.navigation.page_script_hash = "h1"
    info.page_info_changed.query_string = "s=x&moves=SH"
    for msg in (nav, info, button("Oracle step", "$$ID-1-stepper.oracle_step", "frag"),
                button("⟲ Reset", "$$ID-2-stepper.reset", "frag", disabled=True)):
        assert not view.absorb(msg)
    assert (view.page_hash, view.query) == ("h1", "s=x&moves=SH")
    assert view.controls[STEP].id == "$$ID-1-stepper.oracle_step" and view.controls[STEP].fragment == "frag"
    assert view.controls[RESET].disabled


def test_a_run_ends_at_its_finish_not_at_a_stop_to_run_again() -> None:
    view = View()
    assert not view.absorb(finished(ForwardMsg.FINISHED_EARLY_FOR_RERUN))
    assert view.absorb(finished(ForwardMsg.FINISHED_SUCCESSFULLY))
    assert view.absorb(finished(ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY))
    with pytest.raises(StudentError, match="compile"):
        view.absorb(finished(ForwardMsg.FINISHED_WITH_COMPILE_ERROR))


def test_an_exception_on_the_page_fails_the_student() -> None:
    msg = ForwardMsg()
    msg.delta.new_element.exception.type = "KeyError"
    msg.delta.new_element.exception.message = "'stepper.board'"
    with pytest.raises(StudentError, match="KeyError"):
        View().absorb(msg)


class Socket:
    """A websocket that records what is sent and answers every request with ``replies``."""

    def __init__(self, replies: list[ForwardMsg]) -> None:
        self.sent: list[bytes] = []
        self.queue = [r.SerializeToString() for r in replies]
        self.response = None

    async def send(self, data: bytes) -> None:
        self.sent.append(data)

    async def recv(self) -> bytes:
        return self.queue.pop(0)


def test_a_click_sends_the_trigger_of_its_button_in_its_fragment_with_the_page_and_query() -> None:
    from streamlit.proto.BackMsg_pb2 import BackMsg

    socket = Socket([finished(ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)])
    session = Session(socket)  # type: ignore[arg-type]
    session.view = View("h1", "s=x&moves=SH", {})
    session.view.absorb(button("Oracle step", "$$ID-1-stepper.oracle_step", "frag"))
    assert run_async(session.click(STEP)) >= 0
    sent = BackMsg()
    sent.ParseFromString(socket.sent[0])
    state: ClientState = sent.rerun_script
    assert (state.page_script_hash, state.query_string, state.fragment_id) == ("h1", "s=x&moves=SH", "frag")
    triggers = [(w.id, w.trigger_value) for w in state.widget_states.widgets]
    assert triggers == [("$$ID-1-stepper.oracle_step", True)]


def board(data: dict[str, object], widget_id: str = "$$ID-9-stepper.board", fragment: str = "frag"
          ) -> ForwardMsg:
    """The Stepper's board component as its delta carries it: its id and its data, JSON bytes."""
    msg = ForwardMsg()
    msg.delta.fragment_id = fragment
    msg.delta.new_element.bidi_component.id = widget_id
    msg.delta.new_element.bidi_component.bytes = json.dumps(data).encode()
    return msg


def test_the_board_s_oracle_step_and_reset_are_clicked_through_the_component_s_trigger() -> None:
    from streamlit.proto.BackMsg_pb2 import BackMsg

    view = View("h1", "s=x", {})
    view.absorb(board({"oracle": {"move": None}, "controls": {"reset": True}}))
    assert view.controls[STEP].disabled and not view.controls[RESET].disabled
    view.absorb(board({"oracle": {"move": "SH"}, "controls": {"reset": False}}))
    assert not view.controls[STEP].disabled and view.controls[RESET].disabled
    socket = Socket([finished(ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)])
    session = Session(socket)  # type: ignore[arg-type]
    session.view = view
    run_async(session.click(STEP))
    sent = BackMsg()
    sent.ParseFromString(socket.sent[0])
    (widget,) = sent.rerun_script.widget_states.widgets
    assert widget.id.endswith("$$ID-9-stepper.board__events") and sent.rerun_script.fragment_id == "frag"
    assert json.loads(widget.json_trigger_value) == [{"event": "action", "value": {"do": "oracle"}}]


def test_the_stream_is_the_servers_websocket() -> None:
    assert stream_url("http://127.0.0.1:8501/") == "ws://127.0.0.1:8501/_stcore/stream"


def test_a_class_of_two_clicks_oracle_step_without_a_failure() -> None:
    """Two students for five seconds against a server started here, on loopback."""
    with servers(1, memory_log=False) as at:
        row: Row = measure(2, at.url, at.pids, seconds=5)
    assert row.students == 2 and row.failed == 0
    assert row.clicks >= 2  # each student clicks at least once in 5 s of 1–3 s thoughts
    assert 0 < row.p50 <= row.p95 <= row.max < 30
    assert row.clicks_per_s > 0 and row.server_ms_per_click > 0 and not math.isnan(row.client_ms_per_click)


def test_the_browsers_cpu_counts_only_the_chromium_this_benchmark_started(tmp_path: Path) -> None:
    """``benchmarks.load`` counts its own browsers' CPU (its process tree), not another Chromium's."""
    chromium = tmp_path / "chromium"
    chromium.symlink_to("/bin/sleep")  # a process named chromium
    ours = subprocess.Popen([str(chromium), "30"])
    theirs = subprocess.run(["sh", "-c", f"{chromium} 30 >/dev/null 2>&1 & echo $!"],  # its parent exits
                            capture_output=True, text=True, check=True)
    other = int(theirs.stdout)
    try:
        time.sleep(0.2)
        assert Path(f"/proc/{other}").exists()
        counted = chromium_cpu()
        assert ours.pid in counted and other not in counted
    finally:
        ours.kill()
        ours.wait()
        os.kill(other, 9)


def test_the_targets_table_says_met_only_of_what_was_measured_and_takes_before_from_the_same_run() -> None:
    from benchmarks.board_targets import Figures, Run, document, targets_rows

    def class_row(p95: float, failed: int = 0) -> Row:
        return Row(100, 900, p95 / 2, p95, p95 * 1.5, failed, 15.0, 9.0, 2.0)

    now = Figures(server_ms_per_click=9.0, classes=[class_row(0.4)])  # no browser rows measured
    same_run = Figures(server_ms_per_click=50.0, classes=[class_row(12.0)])
    saved = Run(Figures(server_ms_per_click=60.0, browser_main_thread_ms=250.0, board_elements=76),
                "2026-11-27 08:00 UTC", "aaaaaaa", "2 cores", 3.0, 4.0)
    rows = {row[0].split(" (")[0]: row for row in targets_rows(now, same_run)}
    assert rows["server CPU per stepper click"][1:] == ["50 ms", "≤ 10 ms", "9 ms", "yes"]
    assert rows["browser main-thread time per click"][3:] == ["—", "—"]  # not measured: no verdict
    big = next(row for row in rows.values() if "100 protocol students" in row[0])
    assert big[3].startswith("p95 400 ms") and big[4] == "yes"
    assert targets_rows(Figures(classes=[class_row(0.4, failed=1)]), None)[2][4] == "**no**"
    text = document(Run(now, "2026-11-27 09:30 UTC", "bbbbbbb", "2 cores", 5.0, 6.0, same_run, "aaaaaaa"),
                    saved)
    assert "| server CPU per stepper click (12-token sentence) | 50 ms |" in text  # the same run's, not 60
    assert "| 250 ms |" in text and "commit bbbbbbb" in text and "2026-11-27 09:30 UTC" in text


def test_the_benchmarks_clients_run_even_where_an_event_loop_is_already_running() -> None:
    """Playwright's sync API keeps a loop running in pytest's thread once a browser test has run."""

    async def inside_a_running_loop() -> int:
        return run_async(asyncio.sleep(0, result=7))

    # The outer loop runs on a thread of its own too: pytest's may be Playwright's, running already.
    assert run_async(inside_a_running_loop()) == 7


def test_a_student_clicks_the_quick_way_where_the_board_offers_it_and_the_usual_way_when_told(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As the browser does (ui/stepper/board.js): a POST to the board's route with the session's
    token and the click, the answer drawn; a 409 ("the page must run") sends the click over the
    websocket as before."""
    import benchmarks.class_load as class_load

    quick = {"url": "/api/board", "token": "t0k"}
    answers = [(200, {"x-board-link": "s=x&moves=SH"},
                json.dumps({"session": "s1", "version": 4, "quick": quick, "oracle": {"move": "LA"},
                            "controls": {"reset": True}}).encode()),
               (409, {}, b'{"rerun":true}')]
    posted: list[tuple[str, str, dict[str, object], str]] = []

    async def post(url: str, path: str, body: bytes, cookie: str = "") -> tuple[int, dict[str, str], bytes]:
        posted.append((url, path, json.loads(body), cookie))
        return answers.pop(0)

    monkeypatch.setattr(class_load, "post", post)
    socket = Socket([finished(ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)])
    session = Session(socket, "http://127.0.0.1:9")  # type: ignore[arg-type]
    session.view = View("h1", "s=x", {})
    session.view.absorb(board({"session": "s1", "version": 3, "quick": quick, "oracle": {"move": "SH"},
                               "controls": {"reset": False}}))
    run_async(session.click(STEP))
    assert posted[0][:2] == ("http://127.0.0.1:9", "/api/board") and not socket.sent
    assert posted[0][2] == {"token": "t0k", "action": {"do": "oracle", "session": "s1", "on": 3}}
    assert session.quick_clicks == 1 and session.view.query == "s=x&moves=SH"
    assert session.view.drawn == ("s1", 4) and not session.view.controls[RESET].disabled
    run_async(session.click(STEP))
    assert posted[1][2]["action"] == {"do": "oracle", "session": "s1", "on": 4}
    assert len(socket.sent) == 1 and session.quick_clicks == 1  # then over the websocket
    session.use_quick = False
    socket.queue.append(finished(ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY).SerializeToString())
    run_async(session.click(STEP))
    assert len(posted) == 2 and len(socket.sent) == 2  # --reruns: never the quick way
