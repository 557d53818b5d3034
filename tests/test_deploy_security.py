"""A class server a sysadmin can trust (``deploy/``): secrets stay secret, Ray stays on loopback.

* The database password is refused on the command line, read from a file only its owner may
  read, never printed, and in no process's command line while the class is served (a real
  PostgreSQL that checks passwords, its role and database made as docs/operations/serving.md says).
* The Ray head that ``deploy`` starts listens on loopback only, every one of its ports, also
  once a job has run; it refuses a request without its token; a job sent with the token runs,
  and shows as running (not queued) while Ray is still starting it.

The launcher's test needs nginx and PostgreSQL, the head's needs Ray: without them they are
skipped, and under ``CI=true`` they fail.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from deploy.credentials import SecretError, read_private, write_private
from deploy.proxy import NGINX, listening
from deploy.ray_head import RayHead, ray_head, running
from deploy.sockets import descendants, exposed, free_ports
from deploy.sockets import listening as sockets_of
from tests.needs import unavailable
from tests.postgres_server import PostgresServer, as_server_user, initdb, usable_binaries

REPO = Path(__file__).resolve().parents[1]
PASSWORD = "Tr0ub4dor-and-3"  # the lab role's, in a URL and a file, never on a command line


# -- secrets ------------------------------------------------------------------------------------
def launcher(*arguments: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "deploy.launch", *arguments], cwd=REPO, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env or dict(os.environ))


def test_a_password_on_the_command_line_is_refused_without_being_repeated() -> None:
    run = launcher("--database-url", f"postgresql+psycopg://lab:{PASSWORD}@127.0.0.1/lab")
    said, _ = run.communicate(timeout=120)
    assert run.returncode != 0 and "PARSING_DATABASE_URL" in said and "--database-url-file" in said
    assert PASSWORD not in said


def test_a_secret_file_others_may_read_is_refused(tmp_path: Path) -> None:
    secret = write_private(tmp_path / "url", f"postgresql+psycopg://lab:{PASSWORD}@127.0.0.1/lab\n")
    assert oct(secret.stat().st_mode & 0o777) == "0o600" and PASSWORD in read_private(secret)
    secret.chmod(0o640)
    with pytest.raises(SecretError, match="chmod 600"):
        read_private(secret)


def test_a_socket_beyond_loopback_is_found_in_a_process_tree() -> None:
    code = ("import socket, sys; wide, narrow = socket.socket(), socket.socket(); "
            "wide.bind(('0.0.0.0', 0)); narrow.bind(('127.0.0.1', 0)); wide.listen(); narrow.listen(); "
            "print(wide.getsockname()[1], narrow.getsockname()[1], flush=True); sys.stdin.read()")
    parent = subprocess.Popen(["sh", "-c", f'{sys.executable} -c "{code}"'], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        wide, narrow = map(int, parent.stdout.readline().split())
        assert {s.port for s in sockets_of(descendants(parent.pid))} == {wide, narrow}  # the child's
        assert [(s.address, s.port) for s in exposed(parent.pid)] == [("0.0.0.0", wide)]
    finally:
        parent.communicate("")


# -- the database, from nothing ------------------------------------------------------------------
@pytest.fixture
def password_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server that wants the ``lab`` role's password over TCP, as Debian's does
    (``host all all 127.0.0.1/32 scram-sha-256``), with the role and database made as the
    operations docs say (docs/operations/serving.md): ``createuser --pwprompt lab`` (the password typed,
    not in argv), ``createdb``."""
    bin = usable_binaries()
    server = initdb(bin)
    hba = server.folder / "data" / "pg_hba.conf"
    hba.write_text("host all lab 127.0.0.1/32 scram-sha-256\n" + hba.read_text())
    server.port = free_ports(1)[0]
    server.start()
    try:
        client = ["-h", "127.0.0.1", "-p", str(server.port), "-U", "postgres"]
        subprocess.run(as_server_user([str(bin / "createuser"), *client, "--pwprompt", "lab"]), check=True,
                       input=f"{PASSWORD}\n{PASSWORD}\n", text=True, capture_output=True, timeout=60,
                       start_new_session=True)  # no terminal: the prompt reads the typed lines
        subprocess.run(as_server_user([str(bin / "createdb"), *client, "--owner", "lab", "lab"]), check=True,
                       capture_output=True, timeout=60)
        yield server
    finally:
        server.stop()


def command_lines() -> dict[int, str]:
    """Every process's command line, as any user of the machine reads it (``ps``)."""
    found = {}
    for file in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            found[int(file.parent.name)] = file.read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
    return found


def test_the_launcher_keeps_the_password_out_of_ps_and_out_of_what_it_says(
        password_server: PostgresServer, tmp_path: Path) -> None:
    if not NGINX.exists():
        unavailable(f"{NGINX} is missing; install it with `apt-get install -y nginx`")
    url = f"postgresql+psycopg://lab:{PASSWORD}@127.0.0.1:{password_server.port}/lab"
    secret = write_private(tmp_path / "database-url", url + "\n")
    port, replica_port = free_ports(2)
    run = launcher("--replicas", "1", "--port", str(port), "--replica-ports", str(replica_port),
                   "--jobs-dir", str(tmp_path / "jobs"), "--database-url-file", str(secret))
    try:
        said = read_until_open(run)
        assert f"progress: postgresql+psycopg://lab:***@127.0.0.1:{password_server.port}/lab" in said
        lines = command_lines()
        assert [pid for pid, line in lines.items() if PASSWORD in line] == []
        replica = next(pid for pid, line in lines.items() if f"--server.port {replica_port}" in line)
        assert PASSWORD.encode() in Path(f"/proc/{replica}/environ").read_bytes()  # it came this way
        run.send_signal(signal.SIGTERM)
        rest, _ = run.communicate(timeout=60)
    finally:
        run.kill()
    assert run.returncode == 0 and PASSWORD not in said + rest and rest.rstrip().endswith("stopped")
    assert not listening(port) and not listening(replica_port)


def read_until_open(run: subprocess.Popen[str]) -> str:
    """The launcher's output up to its "Open http://…" line (it exits if something fails)."""
    assert run.stdout is not None
    said = ""
    while not said.splitlines()[-1:] or not said.splitlines()[-1].startswith("Open"):
        line = run.stdout.readline()
        assert line, f"the launcher exited before serving:\n{said}"
        said += line
    return said


# -- Ray ------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def head() -> Iterator[RayHead]:
    """The head ``deploy`` starts (``python -m deploy.launch --ray-cpus`` does the same), one CPU;
    stopping it at the end must end every process under it, within half a minute."""
    try:
        import ray.job_submission  # noqa: F401
    except ImportError:
        unavailable("Ray is not installed (pip install -r requirements-ray.txt)")
    folder = Path(tempfile.mkdtemp(prefix="lab-ray-", dir="/tmp"))  # Ray's socket paths must stay short
    started = ray_head(folder, cpus=1).start()
    assert started.process is not None
    try:
        yield started
    finally:
        tree, began = descendants(started.process.pid), time.monotonic()
        started.stop()
        shutil.rmtree(folder, ignore_errors=True)
    assert [pid for pid in tree if running(pid)] == [] and time.monotonic() - began < 30
    assert not listening(started.port)


def test_the_ray_head_listens_on_loopback_only(head: RayHead) -> None:
    assert head.process is not None
    ports = sockets_of(descendants(head.process.pid))
    assert len(ports) >= 6  # GCS, raylet (two), dashboard, its agent, client server, metrics...
    assert exposed(head.process.pid) == [], "Ray listens beyond loopback"
    assert oct(head.token_file.stat().st_mode & 0o777) == "0o600"
    assert all(head.token_file.read_text() not in line for line in command_lines().values())


def test_the_ray_head_refuses_a_request_without_its_token(head: RayHead) -> None:
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{head.address}/api/jobs/", timeout=10)
    assert refused.value.code == 401
    with socket.create_connection(("127.0.0.1", head.port), timeout=5):
        pass  # it does listen there: the token is what is missing


FOLLOW = """
import json, sys, time
from pathlib import Path
from server.jobs import JobBoard, backend_named
from server.jobs.ray_backend import submission_of
from parsing_core.model import DataSpec, ModelConfig, TrainConfig, TrainSpec
spec = TrainSpec(DataSpec(synthetic=40), "arc-hybrid", TrainConfig(epochs=1, seed=1),
                 ModelConfig(word_dim=16, lstm_dim=16, lstm_layers=1, mlp_dim=16))
ray = backend_named("ray")
job = JobBoard(Path(sys.argv[1]), backend=ray).start("tiny", spec)
said = {"ray": str(ray.client().get_job_status(submission_of(job.folder)).value),
        "board": job.status(), "ahead": job.ahead()}
deadline = time.time() + 240
while job.status() in ("queued", "running") and time.time() < deadline:
    time.sleep(0.5)
said.update(end=job.status(), events=[type(e).__name__ for e in job.events()], failure=job.failure())
print(json.dumps(said))
"""


def test_a_job_sent_with_the_token_runs_and_shows_running_while_ray_starts_it(
        head: RayHead, tmp_path: Path) -> None:
    env = {**os.environ, **head.environment()}  # what the launcher gives every replica
    done = subprocess.run([sys.executable, "-c", FOLLOW, str(tmp_path / "jobs")], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    said = json.loads(done.stdout.splitlines()[-1])
    assert said["ray"] == "PENDING"  # Ray is still starting it...
    assert (said["board"], said["ahead"]) == ("running", None)  # ...with room for it: not queued
    assert said["end"] == "finished", said["failure"]
    assert said["events"][0] == "StartEvent" and said["events"][-1] == "TestEvent"
    assert head.process is not None and exposed(head.process.pid) == []  # its workers too
