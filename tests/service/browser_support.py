"""What the browser tests share: the app on SQLite in a real HTTP server on a free loopback
port, a page of Debian's chromium driven by Playwright (/usr/bin/chromium; install it with
`apt-get install -y chromium`; Playwright's own browser downloads are never used), and
signing in as a person does, through the mailed link in the development outbox."""
from __future__ import annotations

import os
import re
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest
from flask import Flask
from werkzeug.serving import make_server

from pbem.app import create_app
from pbem.db import upgrade

CHROMIUM = os.environ.get("PBEM_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Flask, str]]:
    """The app (PBEM_ADVANCE inline: a request advances its game, bots included) and its URL."""
    url = f"sqlite:///{tmp_path}/browser.sqlite3"
    upgrade(url)
    app = create_app({"PBEM_ENV": "testing", "SECRET_KEY": "browser-test", "DATABASE_URL": url,
                      "PBEM_BASE_URL": "http://127.0.0.1"})
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    base = f"http://127.0.0.1:{httpd.server_port}"
    app.config["PBEM_BASE_URL"] = base  # links in mails point at this server
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield app, base
    httpd.shutdown()
    thread.join(5)


@pytest.fixture
def server(served: tuple[Flask, str]) -> str:
    return served[1]


@pytest.fixture
def browser() -> Iterator[Any]:
    """Debian's chromium; a test opens as many contexts (people, window sizes) as it needs."""
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: apt-get install -y chromium"
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    yield context.new_page()
    context.close()


def sign_in(page: Any, server: str, address: str) -> None:
    """Ask for a sign-in link, open it from the development outbox, confirm; end on a blank page."""
    page.goto(f"{server}/signin")
    page.fill("input[name=email]", address)
    page.click("button[type=submit]")
    page.wait_for_selector("text=Check your mail")
    page.goto(f"{server}/dev/outbox")
    link = re.search(r"https?://\S+/signin/\S+", page.inner_text(".mail pre")).group(0)
    page.goto(link)
    page.click("#confirm")
    page.wait_for_url(f"{server}/")
    # Leave the live lobby: a game made next would reload it, and that reload can cut short
    # the test's next navigation ("interrupted by another navigation").
    page.goto("about:blank")


def open_new_game(page: Any, served: tuple[Flask, str], address: str, start: Any) -> int:
    """Sign `address` in, start a game with `start(app, base)` (its id) and open its page."""
    app, base = served
    page.set_default_timeout(20_000)
    sign_in(page, base, address)
    game_id = start(app, base)
    page.goto(f"{base}/games/{game_id}")
    return game_id


def answer_shown(page: Any) -> str:
    """What the page said of the orders just sent: its flash, else the top of the page."""
    return page.inner_text(".flash") if page.is_visible(".flash") else page.inner_text("main")[:600]


def sideways_scroll(page: Any) -> int:
    """How many pixels the page is wider than the window (0: no sideways scroll)."""
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))
