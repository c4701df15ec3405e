"""League points from finished tables, and the standings they add up to (docs/leagues.md,
"Scoring").

Three systems, chosen per league:

- "rank": points by place, the winner 3 and the last 0 at any table size, evenly between
  (3, 2, 1, 0 at four seats; 3, 1.5, 0 at three; 3, 0 at two). Tied seats share the points of
  the places they occupy.
- "share": a seat's game score as a percentage of the table's total.
- "squares": the Diplomacy hobby's sum of squares, a seat's score squared as a percentage of the
  table's sum of squares.

Bot seats take their places and shares at the table, but earn no standing. An annulled (void)
result counts for nothing. Arithmetic is exact (fractions), so equal records tie exactly,
whatever order their games came in.
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

SYSTEMS = ("rank", "share", "squares")

RANK_WIN = 3  # the winner's rank points at every table size; the last seat gets 0
PERCENT = 100  # a whole table's points in "share" and "squares"

# The columns after points that order equal points, in order (docs/leagues.md, "Standings").
TIEBREAKS: dict[str, tuple[str, ...]] = {system: ("average", "wins", "best") for system in SYSTEMS}


@dataclass(frozen=True)
class TableResult:
    """One finished table: every seat's game score and place (1 best; tied seats share a
    place, as 1, 1, 3 or 1, 1, 2). Bot seats are listed like players and named in `bots`."""
    scores: Mapping[str, float]
    places: Mapping[str, int]
    bots: frozenset[str] = frozenset()
    void: bool = False


@dataclass(frozen=True)
class Standing:
    player: str
    points: float
    games: int
    wins: float
    tiebreaks: tuple[float, ...]  # named by TIEBREAKS[system]
    place: int  # shared by exact ties: 1, 1, 3


def table_points(system: str, result: TableResult) -> dict[str, float]:
    """League points each player (not bot) earns at one table; nothing for a void result."""
    return {player: float(points) for player, points in _earned(system, result).items()}


def standings(system: str, results: Iterable[TableResult]) -> list[Standing]:
    """Every player with a counted game, best first: by points, then average points per game,
    then wins (a shared first place splits the win), then the best single result; players
    equal in all of these share a place. Players of void results only are not listed."""
    points: dict[str, Fraction] = defaultdict(Fraction)
    wins: dict[str, Fraction] = defaultdict(Fraction)
    games: dict[str, int] = defaultdict(int)
    best: dict[str, Fraction] = {}
    for result in results:
        earned = _earned(system, result)
        won = _win_shares(result.places)
        for player, table in earned.items():
            points[player] += table
            games[player] += 1
            wins[player] += won.get(player, 0)
            best[player] = max(best.get(player, table), table)
    keys = {player: (points[player], points[player] / games[player], wins[player], best[player])
            for player in games}
    order = sorted(keys, key=lambda player: ([-value for value in keys[player]], player))
    rows: list[Standing] = []
    for index, player in enumerate(order):
        tied = index and keys[order[index - 1]] == keys[player]
        place = rows[-1].place if tied else index + 1
        total, average, won, top = keys[player]
        rows.append(Standing(player=player, points=float(total), games=games[player], wins=float(won),
                             tiebreaks=(float(average), float(won), float(top)), place=place))
    return rows


def _earned(system: str, result: TableResult) -> dict[str, Fraction]:
    if system not in SYSTEMS:
        raise ValueError(f"unknown scoring system {system!r}; one of {', '.join(SYSTEMS)}")
    _check(system, result)
    if result.void:
        return {}
    if system == "rank":
        seats = _rank_points(result.places)
    else:
        weights = {seat: Fraction(score) ** (2 if system == "squares" else 1)
                   for seat, score in result.scores.items()}
        seats = _percentages(weights)
    return {player: points for player, points in seats.items() if player not in result.bots}


def _check(system: str, result: TableResult) -> None:
    """A clear error for a table that cannot be scored, before anything counts."""
    places = result.places
    if len(places) < 2:
        raise ValueError("a table needs at least two seats")
    if any(isinstance(place, bool) or not isinstance(place, int) or place < 1 for place in places.values()):
        raise ValueError("places are whole numbers from 1 (the best)")
    if not result.bots <= places.keys():
        raise ValueError("every bot seat needs a place")
    if system != "rank":
        if result.scores.keys() != places.keys():
            raise ValueError("scores and places must list the same seats")
        if any(isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score)
               or score < 0 for score in result.scores.values()):
            raise ValueError(f"the {system!r} system needs game scores of 0 or more")


def _occupied(places: Mapping[str, int]) -> dict[str, tuple[int, int]]:
    """Per seat, the first position its tie group occupies (1-based) and the group's size: the
    seats better placed come first, whether places were written 1, 1, 3 or 1, 1, 2."""
    values = sorted(places.values())
    return {seat: (values.index(place) + 1, values.count(place)) for seat, place in places.items()}


def _rank_points(places: Mapping[str, int]) -> dict[str, Fraction]:
    # Position k of n earns RANK_WIN * (n - k) / (n - 1); a tie group averages its positions,
    # whose middle is first + (size - 1) / 2.
    n = len(places)
    return {seat: RANK_WIN * (n - first - Fraction(size - 1, 2)) / (n - 1)
            for seat, (first, size) in _occupied(places).items()}


def _percentages(weights: Mapping[str, Fraction]) -> dict[str, Fraction]:
    # A table where every score is 0: nobody outscored anybody, so the seats share equally.
    total = sum(weights.values())
    if total == 0:
        return {seat: Fraction(PERCENT, len(weights)) for seat in weights}
    return {seat: PERCENT * weight / total for seat, weight in weights.items()}


def _win_shares(places: Mapping[str, int]) -> dict[str, Fraction]:
    """One win per table, split between the seats that share first place (bots included)."""
    top = min(places.values())
    winners = [seat for seat, place in places.items() if place == top]
    return {seat: Fraction(1, len(winners)) for seat in winners}


__all__ = ["SYSTEMS", "TIEBREAKS", "TableResult", "Standing", "table_points", "standings"]
