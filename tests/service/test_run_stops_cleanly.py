"""`make run` stops cleanly: Ctrl-C (SIGINT to the whole foreground process group, as a
terminal sends it) or SIGTERM to make (which passes it on to `pbem run`) stops the web
server, the gateway and the worker with its pool and beat; `pbem run` exits 0, so make
prints no "make: *** ... Error", and no process of the session is left, not even a zombie.
Each case starts the real `make run` on free ports, a SQLite file and the file queue, and
waits until the web server answers and the worker and its beat are up."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 180.0  # a loaded machine starts Celery slowly: a bound, not an expectation
STOP_SECONDS = 90.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def session_processes(session: int) -> list[str]:
    """'pid state command' of every process still in the session (zombies too)."""
    done = subprocess.run(["ps", "-e", "-o", "sid=,pid=,stat=,args="], capture_output=True, text=True, check=True)
    return [line.split(None, 1)[1] for line in done.stdout.splitlines() if line.split(None, 1)[0] == str(session)]


class Output:
    """The merged output of a process, read in a thread, to wait on lines in it."""

    def __init__(self, process: subprocess.Popen[str]):
        self.text = ""
        self.thread = threading.Thread(target=self._read, args=(process,), daemon=True)
        self.thread.start()

    def _read(self, process: subprocess.Popen[str]) -> None:
        for line in process.stdout:
            self.text += line


def wait_until(check, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


@pytest.mark.parametrize("stop", ["ctrl-c", "sigterm-to-make"])
def test_make_run_stops_every_process_and_reports_no_error(tmp_path, stop):
    port, smtp_port = free_port(), free_port()
    env = {**os.environ, "PBEM_PORT": str(port), "PBEM_SMTPD_PORT": str(smtp_port),
           "DATABASE_URL": f"sqlite:///{tmp_path / 'dev.db'}", "PBEM_QUEUE_DIR": str(tmp_path / "celery"),
           "PBEM_ADVANCE": "queue", "PYTHONUNBUFFERED": "1"}
    for name in ("REDIS_URL", "PBEM_ENV", "FLASK_ENV", "PBEM_BASE_URL", "MAKEFLAGS", "MFLAGS", "MAKELEVEL"):
        env.pop(name, None)
    # -o: take the installed .venv as it is (the suite runs in it), never reinstall mid-test.
    make = subprocess.Popen(["make", "--no-print-directory", "-o", ".venv/.installed", "run"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    output = Output(make)
    try:
        wait_until(lambda: answers(f"http://127.0.0.1:{port}/"), START_SECONDS, "the web server")
        wait_until(lambda: " ready." in output.text and "beat: Starting" in output.text, START_SECONDS,
                   f"the worker and its beat; output so far:\n{output.text[-2000:]}")
        started = session_processes(make.pid)
        assert any("celery" in p and "worker" in p for p in started), started  # the worker is there to stop

        if stop == "ctrl-c":
            os.killpg(make.pid, signal.SIGINT)
        else:
            make.send_signal(signal.SIGTERM)
        make.wait(STOP_SECONDS)
        output.thread.join(10)
    finally:
        if make.poll() is None:
            os.killpg(make.pid, signal.SIGKILL)
            make.wait(10)

    # make dies of the signal it was sent (what it always does, silently); an error of its
    # recipe would print "make: *** [Makefile:N: run] Error 1" (or "Interrupt").
    assert make.returncode in (-signal.SIGINT, -signal.SIGTERM, 0), (make.returncode, output.text[-2000:])
    assert "make: ***" not in output.text, output.text[-2000:]
    assert "Traceback" not in output.text, output.text[-4000:]
    assert "pbem is running at" in output.text
    wait_until(lambda: not session_processes(make.pid), 10, "the session to end")  # the last exits come quickly
    assert session_processes(make.pid) == []


def test_pbem_run_exits_0_on_sigterm(tmp_path):
    """`pbem run` alone (docker stop, kill): exit status 0 once everything has stopped."""
    port = free_port()
    env = {**os.environ, "PBEM_PORT": str(port), "PBEM_SMTPD_PORT": str(free_port()),
           "DATABASE_URL": f"sqlite:///{tmp_path / 'dev.db'}", "PBEM_ADVANCE": "inline", "PYTHONUNBUFFERED": "1"}
    for name in ("REDIS_URL", "PBEM_ENV", "FLASK_ENV", "PBEM_BASE_URL"):
        env.pop(name, None)
    run = subprocess.Popen([sys.executable, "-m", "pbem", "run"], cwd=tmp_path, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    output = Output(run)
    try:
        wait_until(lambda: answers(f"http://127.0.0.1:{port}/"), START_SECONDS, "the web server")
        run.send_signal(signal.SIGTERM)
        assert run.wait(STOP_SECONDS) == 0, output.text[-3000:]
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait(10)
    assert session_processes(run.pid) == []
