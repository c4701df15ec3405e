"""Sign-in links never appear in access logs: the development server (`pbem run`) and
gunicorn as the Dockerfile starts it, each a real process, followed through a whole sign-in
by link (with a Referer holding the link, as a browser's page would send), then their logs
are read."""
from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from pbem.db import upgrade

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 60.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any) -> None:
        return None


class Browser:
    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
                                                  NoRedirect())

    def open(self, path: str, data: dict[str, str] | None = None, **headers: str) -> tuple[int, str]:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body, headers=headers)
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def csrf(self, path: str) -> str:
        return re.search(r'name="csrf_token" value="([^"]+)"', self.open(path)[1]).group(1)


def wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    end = time.monotonic() + START_SECONDS
    while time.monotonic() < end:
        if process.poll() is not None:
            raise AssertionError(f"the server exited: {log.read_text()[-2000:]}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"the server did not listen within {START_SECONDS:.0f} s: {log.read_text()[-2000:]}")


def sign_in_by_link(base: str, database: Path) -> str:
    """Ask for a link, follow it like a browser (the page, its style sheet with the page as
    Referer, the button), check that it signed in; the link's token."""
    browser = Browser(base)
    status, _ = browser.open("/signin", {"email": "ana@example.com", "csrf_token": browser.csrf("/signin")})
    assert status == 200
    with sqlite3.connect(database) as connection:
        body = connection.execute("SELECT body FROM outbox WHERE topic = 'signin'").fetchone()[0]
    token = re.search(r"/signin/([A-Za-z0-9_-]+)", body).group(1)
    link = f"/signin/{token}"
    status, page = browser.open(link)
    assert status == 200 and "Sign in" in page
    browser.open("/static/style.css", Referer=base + link)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    status, _ = browser.open(link, {"csrf_token": csrf})
    assert status == 302
    assert "ana" in browser.open("/profile")[1]  # signed in
    return token


def run_and_sign_in(command: list[str], port: int, env: dict[str, str], tmp_path: Path, database: Path) -> str:
    log = tmp_path / "server.log"
    with open(log, "wb") as output:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    try:
        wait_for_port(port, process, log)
        token = sign_in_by_link(f"http://127.0.0.1:{port}", database)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
    text = log.read_text()
    assert token not in text, text
    # The page and its button (colours around the development server's lines aside).
    assert re.search(r'GET /signin/\[redacted\] HTTP/1\.1\S*" 200', text), text
    assert re.search(r'POST /signin/\[redacted\] HTTP/1\.1\S*" 302', text), text
    return text


@pytest.fixture
def environment(tmp_path):
    database = tmp_path / "pbem.sqlite3"
    upgrade(f"sqlite:///{database}")
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "SECRET_KEY": "log-test", "PBEM_ADVANCE": "inline",
           "PBEM_REPORT_MAIL": "off", "PYTHONUNBUFFERED": "1"}
    return env, database


def test_the_development_server_logs_no_sign_in_link(environment, tmp_path):
    env, database = environment
    port = free_port()
    env = {**env, "PBEM_ENV": "development", "PBEM_PORT": str(port), "PBEM_SMTPD_PORT": str(free_port())}
    run_and_sign_in([sys.executable, "-m", "pbem", "run"], port, env, tmp_path, database)


def test_gunicorn_as_the_dockerfile_starts_it_logs_no_sign_in_link(environment, tmp_path):
    env, database = environment
    port = free_port()
    line = next(line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("CMD "))
    command = json.loads(line[len("CMD "):])
    assert command[0] == "gunicorn" and "--access-logfile" in command
    command = [sys.executable, "-m", "gunicorn", *command[1:]]
    command[command.index("--bind") + 1] = f"127.0.0.1:{port}"
    command[command.index("--workers") + 1] = "1"
    text = run_and_sign_in(command, port, {**env, "PBEM_ENV": "production"}, tmp_path, database)
    assert '"http://127.0.0.1:%d/signin/[redacted]"' % port in text  # the Referer field


@pytest.mark.parametrize("line", ['"GET /%73ignin/tok3n-Secret HTTP/1.1" 200',
                                  '"GET /signin%2Ftok3n-Secret HTTP/1.1" 404',
                                  '"GET /mail/unsubscribe/tok3n-Secret HTTP/1.1" 200'])
def test_a_secret_link_is_redacted_however_its_path_is_encoded(line):
    """The server routes /%73ignin/... as /signin/... and logs the request line as sent."""
    import logging

    from pbem.logs import RedactSecretLinks
    record = logging.LogRecord("gunicorn.access", logging.INFO, __file__, 1, "%s", (line,), None)
    RedactSecretLinks().filter(record)
    assert "tok3n-Secret" not in record.getMessage() and "[redacted]" in record.getMessage()
