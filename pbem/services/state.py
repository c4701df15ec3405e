"""A game's engine state, rebuilt from its setup and order log (the truth), cached by version.

Replaying a whole game takes milliseconds, more the longer it is; the cache spares even that
on the page views and submissions that follow each other at one version, and a state of a
newer version is the newest cached one with the log lines since applied (the order log
only grows), so a process that did not make the advance (a web process beside the worker)
applies what the advance added, not the whole game again.  Cached states are shared:
callers that change a state work on `.clone()`.  `game_states` serves many games at once
(the deadline tick's digests), reading the order logs it lacks in one query.
"""
from __future__ import annotations

import threading
from collections import OrderedDict, defaultdict
from typing import Any, Hashable, Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.core import GameState
from engine.records import ReplayError, apply_line, replay
from pbem.models import Game, OrderLogEntry
from pbem.services.errors import Conflict

# Enough for the working set of a tick's batch (100 people's digests touch a few hundred
# games) and the busy games of the day; a state takes some 20-50 KiB.
CACHE_SIZE = 2048
# Versions kept of one game: the newest, and the one before for readers that read the game
# just before its advance committed.  Keeping every version let one busy game fill the cache
# and made an advance's state outlive it, long enough for the garbage collector to move it to
# its oldest generation, whose full collections then came every few hundred orders (issue 18).
VERSIONS_KEPT = 2
_cache: OrderedDict[Hashable, GameState] = OrderedDict()
_versions: dict[Hashable, list[Hashable]] = {}  # a game (its cache key without the version) -> its cached keys, oldest first
_lock = threading.Lock()


def cache_key(session: Session, game: Game) -> Hashable:
    # Ids repeat across databases (and across emptied test tables); the URL, creation time
    # and seed tell such games apart.
    return (_url_text(session.get_bind().url), game.id, game.version, game.created_at.isoformat(),
            str(game.setup.get("seed")))


def _url_text(url: Any) -> str:
    """A database URL as text, kept by the URL object's identity: an engine keeps its URL, and
    rendering one costs more than the rest of the key (keyed by the URL itself, as an
    lru_cache would, it was rendered all the same: a URL's hash is that of its text)."""
    kept = _url_texts.get(id(url))
    if kept is None or kept[0] is not url:
        if len(_url_texts) >= 64:
            _url_texts.clear()
        kept = _url_texts[id(url)] = (url, str(url))  # holding the URL keeps its id its own
    return kept[1]


_url_texts: dict[int, tuple[Any, str]] = {}


def _game_of(key: Hashable) -> Hashable:
    """A cache key without its version: the game whatever its version."""
    url, game_id, _, created, seed = key  # type: ignore[misc]
    return (url, game_id, created, seed)


def log_lines(session: Session, game_id: int, limit: int | None = None, after: int = 0) -> list[str]:
    """The game's order-log lines, "<seat>: <order>", from the first (or the one after the
    first `after`)."""
    query = select(OrderLogEntry.seat, OrderLogEntry.text).where(OrderLogEntry.game_id == game_id,
                                                                 OrderLogEntry.seq > after) \
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


def _started(game: Game) -> None:
    if game.status == Game.OPEN or "players" not in game.setup:
        raise Conflict("the game has not started yet")


def _cached(key: Hashable) -> GameState | None:
    with _lock:
        state = _cache.get(key)
        if state is not None:
            _cache.move_to_end(key)
        return state


def game_state(session: Session, game: Game) -> GameState:
    """The current state of a started game (shared: do not change it)."""
    _started(game)
    key = cache_key(session, game)
    state = _cached(key)
    if state is None:
        state = _caught_up(session, game, key) or replay(record(game, log_lines(session, game.id)))
        remember(key, state)
    return state


def _caught_up(session: Session, game: Game, key: Hashable) -> GameState | None:
    """The newest cached state of the game, if it is older than `key`, with the order-log
    lines since applied to a copy; None if there is none (or the lines do not apply)."""
    with _lock:
        kept = _versions.get(_game_of(key))
        older_key = kept[-1] if kept else None
        older = _cache.get(older_key) if older_key is not None else None
    if older is None or older_key[2] > key[2]:  # type: ignore[index]
        return None
    done = len(older.order_log())
    state = older.clone()
    try:
        for index, line in enumerate(log_lines(session, game.id, after=done), start=done):
            apply_line(state, line, index)
    except ReplayError:
        return None
    return state


def game_states(session: Session, games: Iterable[Game]) -> dict[int, GameState]:
    """`game_state` of each of these started games, by id; the order logs of those not in
    the cache are read in one query, not one each."""
    states: dict[int, GameState] = {}
    missing: dict[int, tuple[Hashable, Game]] = {}
    for game in games:
        _started(game)
        key = cache_key(session, game)
        state = _cached(key)
        if state is None:
            missing[game.id] = (key, game)
        else:
            states[game.id] = state
    lines: dict[int, list[str]] = defaultdict(list)
    if missing:
        for game_id, seat, text in session.execute(
                select(OrderLogEntry.game_id, OrderLogEntry.seat, OrderLogEntry.text)
                .where(OrderLogEntry.game_id.in_(missing)).order_by(OrderLogEntry.game_id, OrderLogEntry.seq)):
            lines[game_id].append(f"{seat}: {text}")
    for game_id, (key, game) in missing.items():
        states[game_id] = replay(record(game, lines[game_id]))
        remember(key, states[game_id])
    return states


def remember(key: Hashable, state: GameState) -> None:
    """Cache `state` under `key` (from `cache_key`); only ever a committed state."""
    with _lock:
        _cache[key] = state
        kept = _versions.setdefault(_game_of(key), [])
        if key not in kept:
            kept.append(key)
            kept.sort(key=lambda kept_key: kept_key[2])  # type: ignore[index]
        while len(kept) > VERSIONS_KEPT:
            del _cache[kept.pop(0)]
        while len(_cache) > CACHE_SIZE:
            gone, _ = _cache.popitem(last=False)
            _forget(gone)


def _forget(key: Hashable) -> None:
    """`key` out of its game's cached versions (its state left the cache)."""
    kept = _versions[_game_of(key)]
    kept.remove(key)
    if not kept:
        del _versions[_game_of(key)]


def clear_cache() -> None:
    with _lock:
        _cache.clear()
        _versions.clear()
