"""Who is told that a game just ended: listeners called inside the advance that finished it,
before it commits, so what builds on games (a league's round, pbem/leagues/rounds.py) can
follow at once, while the application layer knows nothing of it.  A listener must be quick
and must not fail: it only notes or queues work, never advances anything itself."""
from __future__ import annotations

from typing import Callable

from sqlalchemy.orm import Session

from pbem.models import Game

Listener = Callable[[Session, Game], None]
_listeners: list[Listener] = []


def listen(listener: Listener) -> Listener:
    """Call `listener(session, game)` whenever a game ends (once per listener)."""
    if listener not in _listeners:
        _listeners.append(listener)
    return listener


def ended(session: Session, game: Game) -> None:
    for listener in list(_listeners):
        listener(session, game)
