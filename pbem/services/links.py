"""Absolute links that go into mails.  Mails are written outside any web request (and
later in workers), so links are built from the configured base URL; the web routes
(pbem/web/) serve exactly these paths, and tests follow them from the outbox."""
from __future__ import annotations


def signin(base_url: str, token: str) -> str:
    return f"{base_url}/signin/{token}"


def confirm_address(base_url: str, token: str) -> str:
    return f"{base_url}/profile/confirm/{token}"


def game(base_url: str, game_id: int) -> str:
    return f"{base_url}/games/{game_id}"


def profile(base_url: str) -> str:
    return f"{base_url}/profile"
