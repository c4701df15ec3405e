"""A game's engine state, rebuilt from its setup and order log (the truth), cached by version.

Replaying a whole game takes a few milliseconds; the cache spares even that on the page
views and submissions that follow each other at one version.  Cached states are shared:
callers that change a state work on `.clone()`.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Hashable

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.core import GameState
from engine.records import replay
from pbem.models import Game, OrderLogEntry
from pbem.services.errors import Conflict

CACHE_SIZE = 256
_cache: OrderedDict[Hashable, GameState] = OrderedDict()
_lock = threading.Lock()


def cache_key(session: Session, game: Game) -> Hashable:
    # Ids repeat across databases (and across emptied test tables); the URL, creation time
    # and seed tell such games apart.
    return (str(session.get_bind().url), game.id, game.version, game.created_at.isoformat(),
            str(game.setup.get("seed")))


def log_lines(session: Session, game_id: int, limit: int | None = None) -> list[str]:
    query = select(OrderLogEntry.seat, OrderLogEntry.text).where(OrderLogEntry.game_id == game_id) \
        .order_by(OrderLogEntry.seq)
    if limit is not None:
        query = query.limit(limit)
    return [f"{seat}: {text}" for seat, text in session.execute(query)]


def player_names(game: Game) -> dict[str, str]:
    """Each seat's player name, once the game has started (public)."""
    return {player["seat"]: player["name"] for player in game.setup.get("players", [])}


def record(game: Game, orders: list[str]) -> dict[str, Any]:
    """The game's record in the engine's format (docs/records.md), seed included: only
    for replaying inside the service, and for export once the game is finished."""
    return {"game": game.kind, **game.setup, "orders": orders}


def game_state(session: Session, game: Game) -> GameState:
    """The current state of a started game (shared: do not change it)."""
    if game.status == Game.OPEN or "players" not in game.setup:
        raise Conflict("the game has not started yet")
    key = cache_key(session, game)
    with _lock:
        state = _cache.get(key)
        if state is not None:
            _cache.move_to_end(key)
            return state
    state = replay(record(game, log_lines(session, game.id)))
    remember(key, state)
    return state


def remember(key: Hashable, state: GameState) -> None:
    """Cache `state` under `key` (from `cache_key`); only ever a committed state."""
    with _lock:
        _cache[key] = state
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)


def clear_cache() -> None:
    with _lock:
        _cache.clear()
