"""A private Dovecot IMAP server for the poller's tests: its own configuration, passwd file and
maildir in a temporary folder, plain IMAP (no TLS) on a free loopback port, run in the
foreground as a subprocess of the test session.  Skipped only when dovecot is not installed
(.ci/run installs dovecot-imapd)."""
from __future__ import annotations

import grp
import imaplib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from gateway_helpers import free_port

USER, PASSWORD = "pbem", "imap-test-password"
_BINARY = shutil.which("dovecot") or next((p for p in ("/usr/sbin/dovecot",) if os.access(p, os.X_OK)), None)

_CONFIG = """\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
instance_name = pbem-test-{port}
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = {user}
default_login_user = {user}
first_valid_uid = 1
mail_uid = {user}
mail_gid = {group}
mail_location = maildir:{root}/mail/%u
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service stats {{
  unix_listener stats-reader {{
    mode = 0666
  }}
  unix_listener stats-writer {{
    mode = 0666
  }}
}}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/users
}}
userdb {{
  driver = static
  args = uid={user} gid={group} home={root}/mail/%u
}}
"""


def _accounts() -> tuple[str, str]:
    """Who Dovecot's processes and mail files run as: root may not be that user (Dovecot
    refuses), so as root an unprivileged system user; otherwise ourselves."""
    if os.geteuid() != 0:
        me = pwd.getpwuid(os.geteuid())
        return me.pw_name, grp.getgrgid(me.pw_gid).gr_name
    user = "dovenull" if _exists(pwd.getpwnam, "dovenull") else "nobody"
    return user, grp.getgrgid(pwd.getpwnam(user).pw_gid).gr_name


def _exists(lookup: Any, name: str) -> bool:
    try:
        lookup(name)
        return True
    except KeyError:
        return False


class Dovecot:
    """A running server: `.port`, `.client()` (logged in), `.append(raw)`, `.flags()`, `.clear()`."""

    def __init__(self) -> None:
        # Not under pytest's tmp_path: that is private to the user running the tests, and the
        # mail user must reach the maildir.
        self.root = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
        self.root.chmod(0o755)
        self.port = free_port()
        user, group = _accounts()
        (self.root / "mail").mkdir()
        shutil.chown(self.root / "mail", user, group)
        (self.root / "users").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n")
        self.config = self.root / "dovecot.conf"
        self.config.write_text(_CONFIG.format(root=self.root, port=self.port, user=user, group=group))
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        assert _BINARY is not None
        self.process = subprocess.Popen([_BINARY, "-F", "-c", str(self.config)], stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"dovecot exited: {self.process.stdout.read().decode()}")  # type: ignore[union-attr]
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as probe:
                    if probe.recv(100).startswith(b"* OK"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"dovecot did not listen on {self.port}: {self.log()}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.root, ignore_errors=True)

    def log(self) -> str:
        path = self.root / "dovecot.log"
        return path.read_text() if path.exists() else ""

    def settings(self, password: str = PASSWORD) -> dict[str, Any]:
        """The PBEM_IMAP_* configuration that polls this server."""
        return {"PBEM_IMAP_HOST": "127.0.0.1", "PBEM_IMAP_PORT": self.port, "PBEM_IMAP_SSL": "0",
                "PBEM_IMAP_USER": USER, "PBEM_IMAP_PASSWORD": password, "PBEM_IMAP_FOLDER": "INBOX"}

    def client(self) -> imaplib.IMAP4:
        client = imaplib.IMAP4("127.0.0.1", self.port, timeout=30)
        client.login(USER, PASSWORD)
        client.select("INBOX")
        return client

    def append(self, raw: bytes) -> None:
        """Deliver a message as a mail server would: IMAP APPEND, unseen."""
        client = self.client()
        try:
            status, data = client.append("INBOX", None, None, raw)
            assert status == "OK", data
        finally:
            client.logout()

    def flags(self) -> list[set[str]]:
        """Each message's flags, oldest first."""
        client = self.client()
        try:
            status, data = client.fetch("1:*", "(FLAGS)")
            assert status == "OK", data
            lines = [item for item in data if isinstance(item, bytes)]
            return [set(line.decode().split("FLAGS (", 1)[1].split(")", 1)[0].split()) for line in lines]
        finally:
            client.logout()

    def clear(self) -> None:
        client = self.client()
        try:
            status, data = client.search(None, "ALL")
            if data[0]:
                client.store("1:*", "+FLAGS", r"(\Deleted)")
                client.expunge()
        finally:
            client.logout()


@pytest.fixture(scope="session")
def dovecot_server() -> Iterator[Dovecot]:
    if _BINARY is None:
        pytest.skip("dovecot is not installed (Debian: apt-get install dovecot-imapd)")
    server = Dovecot()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def dovecot(dovecot_server: Dovecot) -> Iterator[Dovecot]:
    """The session's server with an empty INBOX."""
    dovecot_server.clear()
    yield dovecot_server
