"""Absolute links that go into mails.  Mails are written outside any web request (and
later in workers), so links are built from the configured base URL; the web routes
(pbem/web/) serve exactly these paths, and tests follow them from the outbox."""
from __future__ import annotations

import os

from flask import current_app, has_app_context


def base_url() -> str:
    """The public address for links: the app's setting, else the environment's."""
    if has_app_context():
        return str(current_app.config["PBEM_BASE_URL"])
    return os.environ.get("PBEM_BASE_URL", "http://127.0.0.1:5000").rstrip("/")


def signin(base_url: str, token: str) -> str:
    return f"{base_url}/signin/{token}"


def confirm_address(base_url: str, token: str) -> str:
    return f"{base_url}/profile/confirm/{token}"


def game(base_url: str, game_id: int) -> str:
    return f"{base_url}/games/{game_id}"


def profile(base_url: str) -> str:
    return f"{base_url}/profile"


def rules(base_url: str, game_kind: str) -> str:
    return f"{base_url}/rules/{game_kind}"
