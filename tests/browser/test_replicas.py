"""Two replicas of the app behind nginx (``deploy/``), driven in Chromium as a class would use them.

* Two browsers land on different replicas and each keeps to its own: every response it gets,
  its CoNLL-U upload and its CSV download included, comes from one replica (nginx's
  ``X-Lab-Replica`` header names it).
* A training run started through one replica is listed through the other (the jobs folder is
  shared) and stopped there by the tab that started it (its token rides in the URL).
* A replica killed mid-parse: the learner's page reconnects through nginx to the survivor, which
  rebuilds the board from the URL, and the parse goes on where it was.
* A replica killed and started again under a live tab: the tab, now on the survivor, uploads a
  CoNLL-U file and downloads its CSV there without a reload (the sticky cookie followed it).
* The rendered nginx.conf passes ``nginx -t``; ``python -m deploy.launch`` serves until SIGTERM,
  then leaves no process listening.

nginx is Debian's (``apt-get install nginx``): without it these tests are skipped, and in CI
(``CI=true``) they fail.
"""

from __future__ import annotations

import csv
import io
import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from deploy.launch import Deployment, free_ports, serve
from deploy.proxy import NGINX, REPLICA_HEADER, listening, render
from deploy.replicas import Replica, shared_environment, wait_healthy
from server.jobs import JobBoard
from tests.browser.conftest import require_chromium, settled
from tests.browser.test_stepper_browser import close_settings, open_settings
from tests.needs import unavailable

pytestmark = pytest.mark.browser
REPO = Path(__file__).resolve().parents[2]

DROPZONE = "[data-testid='stFileUploaderDropzoneInput']"
BOARD = ".st-key-stepper-board"  # the stepper's board component (its history, its move buttons)
HISTORY = f"{BOARD} .history"
HEADER = REPLICA_HEADER.lower()  # Playwright gives header names in lower case
TRIES = 24  # fresh browsers opened to find one nginx sends to a given replica (each has odds 1/2)
SENTENCES = {  # a CoNLL-U file per browser, words of its own
    "zebras": "1\tZebras\t_\tNOUN\t_\t_\t2\tnsubj\t_\t_\n2\tgraze\t_\tVERB\t_\t_\t0\troot\t_\t_\n"
              "3\tquietly\t_\tADV\t_\t_\t2\tadvmod\t_\t_\n\n",
    "owls": "1\tOwls\t_\tNOUN\t_\t_\t2\tnsubj\t_\t_\n2\thoot\t_\tVERB\t_\t_\t0\troot\t_\t_\n"
            "3\tloudly\t_\tADV\t_\t_\t2\tadvmod\t_\t_\n\n",
}


def require_nginx() -> None:
    if NGINX.exists():
        return
    unavailable(f"{NGINX} is missing; install it with `apt-get install -y nginx`")


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    """Two replicas sharing a jobs folder and a progress database, nginx in front."""
    require_nginx()
    require_chromium()
    root = tmp_path_factory.mktemp("replicas")
    env = shared_environment(root / "jobs", database_url=f"sqlite:///{root / 'progress.sqlite3'}")
    with serve(2, env, workdir=root / "serve") as deployment:
        yield deployment


@pytest.fixture
def deployment(running: Deployment) -> Deployment:
    """The deployment with both replicas up (a replica a test killed is started again)."""
    dead = [r for r in running.replicas if not r.alive()]
    wait_healthy([r.start() for r in dead])
    return running


class Visitor:
    """One browser (a context of its own), the replica nginx sent it to first (``home``), and the
    replica of every response its page got since."""

    def __init__(self, page: Page, home: str) -> None:
        self.page, self.home = page, home
        self.served: list[tuple[str, str]] = []  # (replica, path)
        self.asked: list[str] = []  # every request's URL (a download may end without a response event)
        page.on("response", lambda r: self.served.append((r.headers.get(HEADER, ""), r.url)))
        page.on("request", lambda r: self.asked.append(r.url))
        page.websockets_opened = 0  # type: ignore[attr-defined]
        page.on("websocket", lambda _: setattr(page, "websockets_opened", page.websockets_opened + 1))

    def replicas(self) -> set[str]:
        return {replica for replica, _ in self.served if replica}


def new_visitor(browser: Browser, deployment: Deployment, on: Replica | None = None) -> Visitor:
    """A fresh browser; with ``on``, one that nginx's cookie sends to that replica.  The cookie is
    nginx's own, set on the first request: fresh browsers are opened until one lands there."""
    for _ in range(TRIES):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        first = context.request.get(f"{deployment.url}/_stcore/health")
        if on is None or first.headers[HEADER] == on.address:
            page = context.new_page()
            page.set_default_timeout(30_000)
            return Visitor(page, first.headers[HEADER])
        context.close()
    pytest.fail(f"none of {TRIES} browsers was sent to {on.address if on else 'a replica'}")


@pytest.fixture
def visitor(browser: Browser, deployment: Deployment) -> Iterator[Callable[..., Visitor]]:
    """``visitor(on=replica)`` opens a browser (see :func:`new_visitor`); all are closed after the test."""
    opened: list[Visitor] = []

    def open_one(on: Replica | None = None) -> Visitor:
        opened.append(new_visitor(browser, deployment, on))
        return opened[-1]

    yield open_one
    for one in opened:
        one.page.context.close()


def other(deployment: Deployment, address: str) -> Replica:
    return next(r for r in deployment.replicas if r.address != address)


def moves_in_url(page: Page) -> str:
    match = re.search(r"[?&]moves=([^&]*)", page.url)
    return match.group(1) if match else ""


def click_move(page: Page, move: str) -> None:
    """Click a move button and wait for the URL to take the move."""
    before = moves_in_url(page)
    try:
        page.locator(f"{BOARD} .moves button[data-kind='{move}']").click()
    except PlaywrightTimeoutError as err:  # say what the board showed, beside what the link holds
        rows = page.locator(f"{HISTORY} tbody tr").all_inner_texts()
        raise AssertionError(f"{move} could not be clicked at {page.url}; the history: {rows}") from err
    after = f"{before}.{move}".lstrip(".")
    expect(page).to_have_url(re.compile(r"moves=" + re.escape(after) + r"(&|$)"))
    # The board has drawn the move: its history holds a row per move after the first configuration's.
    expect(page.locator(f"{HISTORY} tbody tr")).to_have_count(len(after.split(".")) + 1)


def warm_up(page: Page, deployment: Deployment, path: str = "stepper") -> None:
    """Have the replica ``page`` is on run the page once (its first run imports the app), as the
    replicas of a class in session have: a tab that fails over to it is then drawn in seconds."""
    page.goto(f"{deployment.url}/{path}")
    expect(page.get_by_role("link", name="Welcome", exact=True)).to_be_visible(timeout=120_000)
    expect(page.get_by_test_id("stStatusWidget")).to_be_hidden(timeout=120_000)


def redrawn(page: Page) -> None:
    """Wait until the survivor has run the page again for a tab that failed over to it (its
    first run there imports the app: on a busy machine it takes a while).  Until the app has run,
    the sidebar lists the page files by name ("welcome"), not by their titles."""
    expect(page.get_by_role("link", name="Welcome", exact=True)).to_be_visible(timeout=120_000)
    expect(page.get_by_test_id("stStatusWidget")).to_be_hidden(timeout=120_000)
    settled(page, timeout=120_000)


SOURCES = ".st-key-stepper-pick-source label[data-testid='stRadioOption']"  # the sentence's sources


def what_it_shows(page: Page) -> str:
    """For a failure's message: the link, the connection's state, the sentence's sources as the
    browser has them, and how many websockets the page opened (a screenshot goes to the artifacts)."""
    try:
        page.screenshot(path=REPO / "test-artifacts" / "replica-failure.png")
        status = page.get_by_test_id("stStatusWidget")
        sources = page.locator(SOURCES)
        chosen = [label.inner_text(timeout=2_000) for label in sources.all()
                  if label.locator("input").is_checked(timeout=2_000)]
        shown = status.inner_text(timeout=2_000) if status.count() else "none"
    except PlaywrightError as err:  # the page itself may be what failed
        return f"at {page.url}; the page could not be read: {err.message.splitlines()[0]}"
    return (f"at {page.url}; status: {shown!r}; settings open: {sources.count() > 0}; source chosen: "
            f"{chosen}; websockets opened: {getattr(page, 'websockets_opened', '?')}")


def choose_conllu(page: Page, seconds: float = 120) -> None:
    """Pick "CoNLL-U" as the sentence's source, until its upload box shows (a click given while a
    tab that failed over is still being rebuilt on its new replica is lost, or its popover closed
    under it, as it would be for a learner, who clicks again)."""
    dropzone = page.locator(f".st-key-stepper-pick-upload {DROPZONE}")
    options = page.locator(SOURCES)
    deadline = time.monotonic() + seconds
    while dropzone.count() == 0:
        assert time.monotonic() < deadline, f"the CoNLL-U upload box never showed; {what_it_shows(page)}"
        try:  # the rebuilt page's run may also close the popover between opening and clicking
            open_settings(page)
            if options.filter(has_text="CoNLL-U").locator("input").is_checked(timeout=10_000):
                # Chosen in the browser, but no box came: that click was lost.  Another source
                # first, then CoNLL-U again, as a learner would.
                options.filter(has_not_text="CoNLL-U").first.click(timeout=10_000)
            options.filter(has_text="CoNLL-U").click(timeout=10_000)
            dropzone.wait_for(state="attached", timeout=20_000)
        except (PlaywrightTimeoutError, AssertionError):
            continue


def upload_and_parse(page: Page, conllu: Path, moves: list[str]) -> list[dict[str, str]]:
    """On the open stepper, upload ``conllu``, click ``moves``, and download the derivation's CSV rows."""
    history = page.locator(HISTORY)
    expect(history).to_contain_text("ROOT", timeout=90_000)  # a replica's first page imports torch
    choose_conllu(page)
    page.locator(f".st-key-stepper-pick-upload {DROPZONE}").set_input_files(conllu)
    first_word = conllu.read_text().split("\t")[1]
    expect(history).to_contain_text(first_word)
    close_settings(page)
    settled(page)  # closing the settings reruns the page: moves clicked first would race that run
    expect(page.get_by_test_id("stStatusWidget")).to_be_hidden()
    for move in moves:
        click_move(page, move)
    settled(page)  # the URL changes mid-run: the CSV button of the run before would give old rows
    page.locator(".st-key-stepper-derivation-menu button").first.click()  # the derivation's files
    with page.expect_download() as download:
        page.locator(".st-key-stepper-csv button").first.click()
    return list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text(encoding="utf-8"))))


def stop_button(page: Page) -> Locator:
    """A run's Stop on the Train page (not Streamlit's own Stop in the header)."""
    return page.get_by_test_id("stMainBlockContainer").get_by_role("button", name="Stop", exact=True).first


# -- the proxy's configuration --------------------------------------------------------------------
def test_the_rendered_configuration_is_one_nginx_accepts(tmp_path: Path) -> None:
    require_nginx()
    conf = tmp_path / "nginx.conf"
    conf.write_text(render(8500, [8501, 8502], tmp_path))
    checked = subprocess.run([str(NGINX), "-t", "-p", str(tmp_path), "-c", str(conf), "-e",
                              str(tmp_path / "error.log")], capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stderr
    text = conf.read_text()
    assert "proxy_pass http://$pinned;" in text and "ip_hash" not in text
    assert "proxy_set_header Upgrade $http_upgrade;" in text


def test_the_launcher_serves_until_sigterm_then_stops_everything(tmp_path: Path) -> None:
    require_nginx()
    port, replica_port = free_ports(2)
    launcher = subprocess.Popen(
        [sys.executable, "-m", "deploy.launch", "--replicas", "1", "--port", str(port), "--replica-ports",
         str(replica_port), "--jobs-dir", str(tmp_path / "jobs")],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert launcher.stdout is not None
        said = ""
        while not said.startswith("Open"):  # the launcher's own health wait ends in 90 s, or exits
            said = launcher.stdout.readline()
            assert said, "the launcher exited before serving"
        assert said.startswith(f"Open http://127.0.0.1:{port}")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=10) as answer:
            assert answer.read() == b"ok" and answer.headers[REPLICA_HEADER] == f"127.0.0.1:{replica_port}"
        launcher.send_signal(signal.SIGTERM)
        output, _ = launcher.communicate(timeout=60)
    finally:
        launcher.kill()
    assert launcher.returncode == 0, output
    assert output.rstrip().endswith("stopped")
    assert not listening(port) and not listening(replica_port)  # nginx and the replica are gone


# -- in the browser -------------------------------------------------------------------------------
def test_two_browsers_keep_to_their_own_replica_through_upload_moves_and_download(
        visitor: Callable[..., Visitor], deployment: Deployment, tmp_path: Path) -> None:
    first = visitor()
    second = visitor(on=other(deployment, first.home))
    for who in (first, second):
        who.page.goto(f"{deployment.url}/stepper")  # both replicas draw their first page at once
    for name, who in zip(SENTENCES, (first, second)):
        conllu = tmp_path / f"{name}.conllu"
        conllu.write_text(SENTENCES[name])
        rows = upload_and_parse(who.page, conllu, ["SH", "LA", "SH"])
        assert [r["TRANSITION"] for r in rows] == ["", "SH", "LA", "SH"]
        words = SENTENCES[name].split("\t")
        assert rows[0]["BUFFER"] == f"[{words[1]} {words[10]} {words[19]}]"  # the file's three words
        assert rows[2]["ARCS"] == f"+({words[1]} ← {words[10]})" and rows[3]["COST"] == "✗ 1"
    assert first.home != second.home
    assert first.replicas() == {first.home} and second.replicas() == {second.home}  # nothing elsewhere
    for who in (first, second):
        paths = " ".join(who.asked)
        assert "/_stcore/upload_file/" in paths and "/media/" in paths  # the upload, the download


def test_a_run_started_through_one_replica_is_stopped_through_the_other(
        visitor: Callable[..., Visitor], deployment: Deployment) -> None:
    board = JobBoard(Path(deployment.replicas[0].env["PARSING_JOBS_DIR"]))
    starter = visitor(on=deployment.replicas[0])
    elsewhere = visitor(on=deployment.replicas[1])
    try:
        for who in (starter, elsewhere):
            who.page.goto(f"{deployment.url}/train")
        starter.page.get_by_role("button", name="Start training").click(timeout=60_000)
        expect(stop_button(starter.page)).to_be_visible(timeout=60_000)
        assert re.search(r"[?&]tab=\w+", starter.page.url), "the tab's token is in its URL"
        [job] = board.running()
        expect(elsewhere.page.get_by_text("someone else's run")).to_be_visible(timeout=60_000)
        elsewhere.page.goto(starter.page.url)  # the starting tab's link, opened on the other replica
        stop_button(elsewhere.page).click()
        expect(elsewhere.page.get_by_text("No run is going now.")).to_be_visible()
        assert job.status() == "stopped"
        expect(starter.page.get_by_text("No run is going now.")).to_be_visible()  # the first replica sees it
        assert starter.replicas() == {deployment.replicas[0].address}
        assert elsewhere.replicas() == {deployment.replicas[1].address}
    finally:
        for job in board.running():
            job.stop()


def test_a_learner_whose_replica_dies_goes_on_from_the_url_on_the_other(
        visitor: Callable[..., Visitor], deployment: Deployment) -> None:
    learner = visitor()
    page = learner.page
    page.goto(f"{deployment.url}/stepper?s=he-sent-her-a-letter&sys=arc-eager")
    history = page.locator(HISTORY)
    expect(history).to_contain_text("ROOT", timeout=60_000)
    for move in ["SH", "LA", "RA"]:
        click_move(page, move)
    assert learner.replicas() == {learner.home}
    survivor = other(deployment, learner.home)
    with page.expect_websocket(timeout=30_000):  # the page's new connection, through nginx
        deployment.replica_at(learner.home).kill()
    # The moves were quick clicks (no run of the page), so the survivor's new session knows
    # nothing of them, and Streamlit's link is the one of the page's first run.  The next click
    # finds its session gone: the page reloads from its address, and the click goes on there.
    with page.expect_navigation(timeout=60_000):
        page.locator(f"{BOARD} .moves button[data-kind='SH']").click()
    expect(page).to_have_url(re.compile(r"moves=SH\.LA\.RA\.SH(&|$)"), timeout=60_000)
    expect(page.locator(f"{HISTORY} tbody tr")).to_have_count(5)
    assert moves_in_url(page) == "SH.LA.RA.SH"  # nothing lost, and the move after it kept
    expect(history).to_contain_text("[ROOT sent her]")  # seed 000's wrong SH of "her"
    tried = page.context.request.get(f"{deployment.url}/_stcore/health").headers[HEADER]
    assert tried.split(", ")[-1] == survivor.address  # nginx may try the dead one first: it says so


def test_a_failed_over_tab_uploads_and_downloads_after_its_replica_returns(
        visitor: Callable[..., Visitor], deployment: Deployment, tmp_path: Path) -> None:
    learner = visitor()
    page = learner.page
    page.goto(f"{deployment.url}/stepper")
    expect(page.locator(HISTORY)).to_contain_text("ROOT", timeout=90_000)
    dead, survivor = deployment.replica_at(learner.home), other(deployment, learner.home)
    warm_up(visitor(on=survivor).page, deployment)
    with page.expect_websocket(timeout=30_000):  # the page's new connection, to the survivor
        dead.kill()
    wait_healthy([dead.start()])  # as the launcher does: the dead replica is back
    assert dead.healthy()
    redrawn(page)
    since, asked = len(learner.served), len(learner.asked)
    conllu = tmp_path / "owls.conllu"
    conllu.write_text(SENTENCES["owls"])
    rows = upload_and_parse(page, conllu, ["SH", "LA"])  # same tab, no reload
    assert [r["TRANSITION"] for r in rows] == ["", "SH", "LA"] and rows[0]["BUFFER"] == "[Owls hoot loudly]"
    paths = " ".join(learner.asked[asked:])
    assert "/_stcore/upload_file/" in paths and "/media/" in paths
    assert {replica for replica, _ in learner.served[since:] if replica} == {survivor.address}


def test_a_failed_over_train_tab_starts_and_stops_a_run_after_its_replica_returns(
        visitor: Callable[..., Visitor], deployment: Deployment) -> None:
    board = JobBoard(Path(deployment.replicas[0].env["PARSING_JOBS_DIR"]))
    learner = visitor()
    page = learner.page
    page.goto(f"{deployment.url}/train")
    start = page.get_by_role("button", name="Start training")
    expect(start).to_be_enabled(timeout=90_000)
    dead = deployment.replica_at(learner.home)
    warm_up(visitor(on=other(deployment, learner.home)).page, deployment, "train")
    with page.expect_websocket(timeout=30_000):
        dead.kill()
    wait_healthy([dead.start()])
    redrawn(page)
    try:
        start.click(timeout=60_000)
        expect(stop_button(page)).to_be_visible(timeout=60_000)
        [job] = board.running()
        stop_button(page).click()
        expect(page.get_by_text("No run is going now.")).to_be_visible(timeout=30_000)
        assert job.status() == "stopped"
    finally:
        for job in board.running():
            job.stop()
