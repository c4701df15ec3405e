"""League ratings (pbem/leagues/ratings.py, docs/leagues.md "Ratings"): hand-worked cases and
openskill's own API called directly on the same data, ties, bots, partial play by the seat
rule, and the same ratings whether a season is rated at once or game by game."""
from __future__ import annotations

import math
import random

import pytest
from openskill.models import PlackettLuce

from pbem.leagues.ratings import RatedGame, Rating, Seat, by_player, new_rating, rate, rated_game

MU, SIGMA, BETA, TAU = 25.0, 25.0 / 3, 25.0 / 6, 25.0 / 300  # the library's defaults


def direct(ratings: dict[str, Rating], places: dict[str, int]) -> dict[str, tuple[float, float]]:
    """The same game through openskill's own API: every player a team of one, places as ranks."""
    model = PlackettLuce()
    players = list(places)
    teams = [[model.rating(mu=ratings[p].mu, sigma=ratings[p].sigma) if p in ratings else model.rating()]
             for p in players]
    after = model.rate(teams, ranks=[places[p] for p in players])
    return {p: (team[0].mu, team[0].sigma) for p, team in zip(players, after)}


def mu_sigma(ratings: dict[str, Rating]) -> dict[str, tuple[float, float]]:
    return {p: (r.mu, r.sigma) for p, r in ratings.items()}


def test_new_player_starts_at_the_library_defaults():
    assert new_rating() == Rating(mu=MU, sigma=SIGMA, ordinal=0.0)


def test_two_new_players_worked_by_hand():
    """Plackett-Luce for two new players, the first wins. The library first widens sigma by
    tau: s2 = sigma^2 + tau^2; then c^2 = 2 (s2 + beta^2). Each win probability is 1/2, so the
    winner's omega is +1/2 s2 / c and the loser's -1/2 s2 / c; delta = 1/4 s2 / c^2 for both,
    damped by gamma = sqrt(s2) / c: sigma' = sqrt(s2) sqrt(1 - delta gamma)."""
    s2 = SIGMA ** 2 + TAU ** 2
    c = math.sqrt(2 * (s2 + BETA ** 2))
    mu_change = 0.5 * s2 / c                               # 2.6354...
    sigma_after = math.sqrt(s2) * math.sqrt(1 - 0.25 * s2 / c ** 2 * math.sqrt(s2) / c)
    ratings, _ = rate([RatedGame("g1", {"ann": 1, "bob": 2})])
    assert ratings["ann"].mu == pytest.approx(MU + mu_change) == pytest.approx(27.6354, abs=1e-4)
    assert ratings["bob"].mu == pytest.approx(MU - mu_change)
    assert ratings["ann"].sigma == ratings["bob"].sigma == pytest.approx(sigma_after)


def test_two_new_players_tied_keep_their_mu():
    """A tie between equals: neither outplayed the other, so mu stays 25; both are now better
    known, so sigma shrinks."""
    ratings, _ = rate([RatedGame("g1", {"ann": 1, "bob": 1})])
    assert ratings["ann"].mu == pytest.approx(MU) and ratings["bob"].mu == pytest.approx(MU)
    assert ratings["ann"].sigma < SIGMA


def test_three_new_players_two_tied_first_as_openskill_rates():
    places = {"ann": 1, "bob": 1, "cat": 3}
    ratings, _ = rate([RatedGame("g1", places)])
    assert mu_sigma(ratings) == direct({}, places)
    assert ratings["ann"] == ratings["bob"]  # equal places are equal ranks
    assert ratings["ann"].mu > MU > ratings["cat"].mu


def test_tie_written_densely_rates_the_same():
    """Places 1, 2, 2, 3 and 1, 2, 2, 4 are the same result."""
    dense, _ = rate([RatedGame("g1", {"a": 1, "b": 2, "c": 2, "d": 3})])
    sparse, _ = rate([RatedGame("g1", {"a": 1, "b": 2, "c": 2, "d": 4})])
    assert dense == sparse


def test_known_players_with_a_tie_as_openskill_rates():
    """Four players with past ratings, two tied second: the same as the library called on the
    same ratings and ranks; the ordinal is mu - 3 sigma. Tied players share a rank, not a
    change: each moves by how the tie compares with what was expected of them."""
    start = {"a": Rating(30.0, 4.0, 18.0), "b": Rating(22.0, 6.5, 2.5),
             "c": Rating(27.5, 3.0, 18.5), "d": Rating(18.0, 7.0, -3.0)}
    places = {"a": 3, "b": 1, "c": 2, "d": 2}
    ratings, _ = rate([RatedGame("g1", places)], start=start)
    assert mu_sigma(ratings) == direct(start, places)
    # A tie with a stronger player is worth more to the weaker one.
    assert ratings["d"].mu - start["d"].mu > 0 > ratings["c"].mu - start["c"].mu
    assert all(r.ordinal == pytest.approx(r.mu - 3 * r.sigma) for r in ratings.values())


def test_listing_order_does_not_matter():
    one, _ = rate([RatedGame("g1", {"a": 2, "b": 1, "c": 3, "d": 2})])
    other, _ = rate([RatedGame("g1", {"d": 2, "c": 3, "b": 1, "a": 2})])
    assert one == other


def test_a_game_with_one_rated_player_changes_nothing():
    """Bot seats are not listed; a game against bots alone rates nobody and has no history."""
    start = {"ann": Rating(28.0, 5.0, 13.0)}
    ratings, history = rate([RatedGame("g1", {"ann": 1}), RatedGame("g2", {})], start=start)
    assert ratings == start and history == []


def test_players_not_in_a_game_keep_their_rating():
    start = {"zed": Rating(31.0, 2.0, 25.0)}
    ratings, history = rate([RatedGame("g1", {"ann": 1, "bob": 2})], start=start)
    assert ratings["zed"] == start["zed"]
    assert {player for _, player, _ in history} == {"ann", "bob"}


def season(seed: int, games: int) -> list[RatedGame]:
    """Random three- and four-seat games among eight players, with ties now and then."""
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(8)]
    out = []
    for number in range(games):
        table = rng.sample(players, rng.choice((3, 4)))
        out.append(RatedGame(f"g{number}", {p: rng.randint(1, len(table) - 1) for p in table}))
    return out


def test_game_by_game_equals_recomputing_from_scratch():
    games = season(seed=16, games=40)
    at_once, full_history = rate(games)
    ratings, history = None, []
    for game in games:
        ratings, step = rate([game], start=ratings)
        history += step
    assert ratings == at_once
    assert history == full_history


def test_history_per_player_for_a_chart():
    games = [RatedGame("g1", {"ann": 1, "bob": 2}), RatedGame("g2", {"bob": 1, "cat": 2}),
             RatedGame("g3", {"ann": 2, "cat": 1, "bob": 3})]
    ratings, history = rate(games)
    charts = by_player(history)
    assert [key for key, _ in charts["ann"]] == ["g1", "g3"]
    assert [key for key, _ in charts["bob"]] == ["g1", "g2", "g3"]
    assert all(charts[p][-1][1] == ratings[p] for p in ratings)
    assert charts["bob"][1][1].mu > charts["bob"][0][1].mu  # bob won g2


# --- partial play (the seat rule's weights) ------------------------------------------------

def test_full_weight_is_the_plain_update():
    plain, _ = rate([RatedGame("g1", {"ann": 1, "bob": 2})])
    weighted, _ = rate([RatedGame("g1", {"ann": 1, "bob": 2}, weights={"ann": 1.0})])
    assert plain == weighted


def test_half_weight_moves_half_way():
    """A player who played half the seat moves half way from their old rating to the full
    update; the others are rated as before."""
    plain, _ = rate([RatedGame("g1", {"ann": 1, "bob": 2})])
    half, _ = rate([RatedGame("g1", {"ann": 1, "bob": 2}, weights={"ann": 0.5})])
    assert half["ann"].mu == pytest.approx((MU + plain["ann"].mu) / 2)
    assert half["ann"].sigma == pytest.approx((SIGMA + plain["ann"].sigma) / 2)
    assert half["bob"] == plain["bob"]


@pytest.mark.parametrize("game, message", [
    (RatedGame("g1", {"ann": 0, "bob": 1}), "whole numbers from 1"),
    (RatedGame("g1", {"ann": 1, "bob": 2}, weights={"cat": 0.5}), "no place"),
    (RatedGame("g1", {"ann": 1, "bob": 2}, weights={"ann": 0}), "more than 0"),
    (RatedGame("g1", {"ann": 1, "bob": 2}, weights={"ann": 1.5}), "at most 1"),
])
def test_bad_game_is_a_clear_error(game, message):
    with pytest.raises(ValueError, match=message):
        rate([game])


# --- the seat rule -------------------------------------------------------------------------

def test_seat_rule_plain_table_rates_every_player_in_full():
    game = rated_game("g1", [Seat(2, {"ann": 10}, 10, "ann"), Seat(1, {"bob": 10}, 10, "bob"),
                             Seat(3, {"cat": 9}, 9, "cat")])
    assert game == RatedGame("g1", {"ann": 2, "bob": 1, "cat": 3}, {})


def test_seat_rule_bot_seat_is_not_rated_but_counts_for_last_place():
    """A bot seat is nobody's; a leaver's loss is the table's last place, below the bot."""
    game = rated_game("g1", [Seat(1, {}, 12, None), Seat(2, {"ann": 12}, 12, "ann"),
                             Seat(3, {"bob": 4}, 12, None)])
    assert game.places == {"ann": 2, "bob": 3}
    assert game.weights == {}


def test_seat_rule_stand_in_at_the_hard_date_weights_by_the_part_played():
    """The round's hard date came and the stand-in bot made the last 2 of 10 decisions: the
    player still held the seat, and is rated at its place for the 8 they made."""
    game = rated_game("g1", [Seat(1, {"ann": 8}, 10, "ann"), Seat(2, {"bob": 10}, 10, "bob")])
    assert game.places == {"ann": 1, "bob": 2}
    assert game.weights == {"ann": 0.8}


def test_seat_rule_leaver_loses_and_replacement_is_rated_for_their_part():
    """ann left after 3 of 10 decisions and cat finished the seat in 1st: ann is rated last
    of the table in full, cat 1st for 7 tenths."""
    game = rated_game("g1", [Seat(1, {"ann": 3, "cat": 7}, 10, "cat"), Seat(2, {"bob": 10}, 10, "bob"),
                             Seat(3, {"dan": 10}, 10, "dan")])
    assert game.places == {"ann": 3, "cat": 1, "bob": 2, "dan": 3}
    assert game.weights == {"cat": 0.7}


def test_seat_rule_late_replacement_is_not_rated():
    """A replacement who made fewer than half the seat's decisions is not rated; the leaver
    still takes the loss."""
    game = rated_game("g1", [Seat(1, {"ann": 6, "cat": 4}, 10, "cat"), Seat(2, {"bob": 10}, 10, "bob")])
    assert game.places == {"ann": 2, "bob": 2}
    assert game.weights == {}


def test_seat_rule_leaver_who_never_played_is_not_rated():
    game = rated_game("g1", [Seat(2, {"ann": 0, "cat": 10}, 10, "cat"), Seat(1, {"bob": 10}, 10, "bob")])
    assert game.places == {"cat": 2, "bob": 1}


def test_seat_rule_game_feeds_the_ratings():
    """A leaver's loss costs rating; the replacement's win gains less than a full one."""
    game = rated_game("g1", [Seat(1, {"ann": 3, "cat": 7}, 10, "cat"), Seat(2, {"bob": 10}, 10, "bob")])
    ratings, _ = rate([game])
    full, _ = rate([RatedGame("g0", {"cat": 1, "bob": 2, "ann": 2})])
    assert ratings["ann"].mu < MU
    assert MU < ratings["cat"].mu < full["cat"].mu


@pytest.mark.parametrize("seats, message", [
    ([Seat(1, {"ann": 11}, 10, "ann"), Seat(2, {"bob": 1}, 1, "bob")], "more decisions"),
    ([Seat(1, {"ann": -1}, 10, "ann"), Seat(2, {"bob": 1}, 1, "bob")], "0 or more"),
    ([Seat(1, {"ann": 5}, 10, "ann"), Seat(2, {"ann": 3, "bob": 5}, 10, "bob")], "two seats"),
])
def test_seat_rule_bad_seats_are_a_clear_error(seats, message):
    with pytest.raises(ValueError, match=message):
        rated_game("g1", seats)
