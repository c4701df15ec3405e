"""Player ratings across rated games, with OpenSkill's Plackett-Luce model (docs/leagues.md,
"Ratings").

Each rated game updates its rated players from their places at the table: every player is a
team of one, equal places are equal ranks (a tie), and a player seen for the first time starts
at the library's defaults (mu 25, sigma 25/3). A rating is shown by its ordinal, the library's
mu - 3 sigma: a skill the player very likely has at least, which rises as they play and their
uncertainty shrinks. Bot seats are not rated: callers list rated players only, and a game with
fewer than two of them changes nothing.

Rating is a fold over the games in the order they finished, so updating game by game (each time
from the previous ratings, `start`) and recomputing from scratch give the same ratings.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    ordinal: float  # mu - 3 sigma: what is shown and sorted on


@dataclass(frozen=True)
class RatedGame:
    key: str  # the game's id, for the history
    places: Mapping[str, int]  # rated players only -> place (1 best; equal places tie)
    # Partial play, 0 < weight <= 1 (1 if absent): the player's change from this game is that
    # fraction of the full change (the seat rule, `rated_game`).
    weights: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Seat:
    """One seat of a finished table, as the seat rule (`rated_game`) reads it."""
    place: int
    decisions: Mapping[str, int]  # each rated person who held the seat -> decisions they made there
    total: int  # the seat's decisions, whoever made them (the stand-in bot's too)
    holder: str | None = None  # the rated person holding the seat at the end, if any


History = list[tuple[str, str, Rating]]  # (game key, player, rating after that game)


def new_rating() -> Rating:
    """A player's rating before their first rated game: the library's defaults."""
    return _rating(_model().rating())


def rate(games: Iterable[RatedGame], start: Mapping[str, Rating] | None = None) -> tuple[dict[str, Rating], History]:
    """The ratings after `games`, in order, from `start` (everyone new if None), and the history:
    each rated player's rating after each game that changed it."""
    model = _model()
    ratings = dict(start or {})
    history: History = []
    for game in games:
        _check(game)
        if len(game.places) < 2:
            continue  # nobody to compare with: a game against bots only rates nobody
        players = sorted(game.places)
        before = [ratings.get(player) or new_rating() for player in players]
        teams = [[model.rating(mu=rating.mu, sigma=rating.sigma)] for rating in before]
        after = model.rate(teams, ranks=[game.places[player] for player in players])
        for player, old, [new] in zip(players, before, after):
            weight = game.weights.get(player, 1.0)
            # Partial play moves the rating part of the way from the old to the full new one.
            mu = old.mu + weight * (new.mu - old.mu)
            sigma = old.sigma + weight * (new.sigma - old.sigma)
            ratings[player] = _rating(model.rating(mu=mu, sigma=sigma))
            history.append((game.key, player, ratings[player]))
    return ratings, history


def by_player(history: History) -> dict[str, list[tuple[str, Rating]]]:
    """Each player's ratings game after game, oldest first (a history chart's points)."""
    charts: dict[str, list[tuple[str, Rating]]] = defaultdict(list)
    for key, player, rating in history:
        charts[player].append((key, rating))
    return dict(charts)


def rated_game(key: str, seats: Sequence[Seat]) -> RatedGame:
    """Who a finished table rates, by the seat rule (docs/leagues.md, "Ratings"), from every
    seat of the table (bot seats too: they count for the last place):

    - the person holding a seat at the end is rated at its place if they made at least half its
      decisions, weighted by their share of them (a seat the stand-in bot finished at the hard
      date counts for its player by the part they played);
    - a person who left a seat (withdrew, was dropped or replaced) after making a decision in it
      is rated at the table's last place, in full: a forfeit is a loss, so leaving a losing game
      never saves a rating;
    - anyone else, and every bot, is not rated.
    """
    last = len(seats)
    places: dict[str, int] = {}
    weights: dict[str, float] = {}

    def enter(person: str, place: int, weight: float) -> None:
        if person in places:
            raise ValueError(f"{person!r} is listed in two seats of one game")
        places[person] = place
        if weight != 1:
            weights[person] = weight

    for seat in seats:
        if seat.total < 0 or any(count < 0 for count in seat.decisions.values()):
            raise ValueError("decision counts are 0 or more")
        if sum(seat.decisions.values()) > seat.total:
            raise ValueError("a seat's people cannot make more decisions than the seat had")
        for person, count in seat.decisions.items():
            if person != seat.holder and count > 0:
                enter(person, last, 1.0)
        if seat.holder is not None:
            made = seat.decisions.get(seat.holder, 0)
            share = made / seat.total if seat.total else 1.0  # a seat without decisions is all theirs
            if share >= 0.5:
                enter(seat.holder, seat.place, share)
    return RatedGame(key=key, places=places, weights=weights)


def _model() -> PlackettLuce:
    # A fresh model each time: the library's defaults, and no state shared between callers.
    return PlackettLuce()


def _rating(rating) -> Rating:
    return Rating(mu=rating.mu, sigma=rating.sigma, ordinal=rating.ordinal())


def _check(game: RatedGame) -> None:
    if any(isinstance(place, bool) or not isinstance(place, int) or place < 1 for place in game.places.values()):
        raise ValueError(f"game {game.key}: places are whole numbers from 1 (the best)")
    if not game.weights.keys() <= game.places.keys():
        raise ValueError(f"game {game.key}: a weight for a player who has no place")
    if any(not 0 < weight <= 1 for weight in game.weights.values()):
        raise ValueError(f"game {game.key}: weights are more than 0 and at most 1")


__all__ = ["Rating", "RatedGame", "Seat", "History", "new_rating", "rate", "by_player", "rated_game"]
