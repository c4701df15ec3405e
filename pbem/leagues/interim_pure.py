"""THROWAWAY: stand-ins for pbem.leagues.seating/scoring/ratings until those land on main.
Deleted once they do; nothing else may import this module but the league services."""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Iterable, Mapping, Sequence

Table = list


def _seat_round(players: Sequence[str], size: int, past: Sequence[Sequence[Table]], seed: Any,
                *, min_size: int | None = None) -> list[Table]:
    order = sorted(players)
    random.Random(f"{seed}").shuffle(order)
    tables = [order[i:i + size] for i in range(0, len(order), size)]
    if tables and len(tables[-1]) < size:
        tables[-1] = tables[-1] + [None] * (size - len(tables[-1]))
    return tables


def _repeated_pairs(rounds: Sequence[Sequence[Table]]) -> int:
    seen: dict[tuple[str, str], int] = {}
    for tables in rounds:
        for table in tables:
            people = sorted(p for p in table if p is not None)
            for i, a in enumerate(people):
                for b in people[i + 1:]:
                    seen[(a, b)] = seen.get((a, b), 0) + 1
    return sum(n - 1 for n in seen.values() if n > 1)


seating = SimpleNamespace(seat_round=_seat_round, repeated_pairs=_repeated_pairs)


@dataclass(frozen=True)
class TableResult:
    scores: Mapping[str, float]
    places: Mapping[str, int]
    bots: frozenset = frozenset()
    void: bool = False


@dataclass(frozen=True)
class Standing:
    player: str
    points: float
    games: int
    wins: float
    tiebreaks: tuple = ()
    place: int = 0


def _standings(system: str, results: Iterable[TableResult]) -> list[Standing]:
    points: dict[str, float] = {}
    games: dict[str, int] = {}
    wins: dict[str, float] = {}
    for result in results:
        if result.void:
            continue
        n = len(result.places)
        for player, place in result.places.items():
            if player in result.bots:
                continue
            points[player] = points.get(player, 0) + (n - place)
            games[player] = games.get(player, 0) + 1
            wins[player] = wins.get(player, 0) + (place == 1)
    order = sorted(points, key=lambda p: (-points[p], -wins[p], p))
    return [Standing(p, points[p], games[p], wins[p], (wins[p],), i) for i, p in enumerate(order, start=1)]


scoring = SimpleNamespace(SYSTEMS=("rank", "share", "squares"), TableResult=TableResult,
                          standings=_standings, TIEBREAKS={s: ("wins",) for s in ("rank", "share", "squares")})


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    ordinal: float


@dataclass(frozen=True)
class RatedGame:
    key: str
    places: Mapping[str, int]
    weights: Mapping[str, float] = field(default_factory=dict)


def _new_rating() -> Rating:
    return Rating(25.0, 25 / 3, 0.0)


def _rate(games: Iterable[RatedGame], start: Mapping[str, Rating] | None = None):
    now = dict(start or {})
    history = []
    for game in games:
        for player, place in game.places.items():
            old = now.get(player, _new_rating())
            mu = old.mu + (len(game.places) + 1 - 2 * place)
            sigma = max(1.0, old.sigma * 0.95)
            now[player] = Rating(mu, sigma, mu - 3 * sigma)
            history.append((game.key, player, now[player]))
    return now, history


ratings = SimpleNamespace(Rating=Rating, RatedGame=RatedGame, rate=_rate, new_rating=_new_rating)
_ = math
