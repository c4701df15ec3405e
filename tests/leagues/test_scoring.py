"""League scoring (pbem/leagues/scoring.py, docs/leagues.md "Scoring"): each system against a
worked example, one case per test.

The seven-seat example is the drawn Diplomacy game worked on The Embassy's "Tournament
Scoring - Part 4: Supply Centre Scoring": England 12 centres, Russia 9, Turkey 8, Italy 5,
France, Germany and Austria eliminated (0). Its published figures: shares 35.29, 26.47, 23.52
(23.53 rounded), 14.71; sum of squares 45.86, 25.8, 20.38, 7.96 (game score 314).
"""
from __future__ import annotations

import pytest

from pbem.leagues.scoring import SYSTEMS, TIEBREAKS, Standing, TableResult, standings, table_points

DIPLOMACY = TableResult(scores={"England": 12, "Russia": 9, "Turkey": 8, "Italy": 5,
                                "France": 0, "Germany": 0, "Austria": 0},
                        places={"England": 1, "Russia": 2, "Turkey": 3, "Italy": 4,
                                "France": 5, "Germany": 5, "Austria": 5})


def rounded(points: dict[str, float]) -> dict[str, float]:
    return {player: round(value, 2) for player, value in points.items()}


def table(*seats: tuple[str, float, int], bots=(), void=False) -> TableResult:
    """A table from (seat, score, place) rows."""
    return TableResult(scores={seat: score for seat, score, _ in seats},
                       places={seat: place for seat, _, place in seats},
                       bots=frozenset(bots), void=void)


# --- rank points ---------------------------------------------------------------------------

def test_rank_four_seats():
    """Rank points: the winner 3, the last 0, evenly between: 3, 2, 1, 0 at four seats."""
    result = table(("a", 40, 1), ("b", 30, 2), ("c", 20, 3), ("d", 10, 4))
    assert table_points("rank", result) == {"a": 3, "b": 2, "c": 1, "d": 0}


def test_rank_three_and_two_seats_keep_the_win_at_three():
    """A smaller table gives the same 3 for a win and 0 for last, so tables of different
    sizes in one round weigh alike (3, 1.5, 0 at three seats; 3, 0 at two)."""
    assert table_points("rank", table(("a", 9, 1), ("b", 5, 2), ("c", 1, 3))) == {"a": 3, "b": 1.5, "c": 0}
    assert table_points("rank", table(("a", 9, 1), ("b", 5, 2))) == {"a": 3, "b": 0}


def test_rank_tie_shares_the_places_it_occupies():
    """Tied seats share the points of the places they occupy: two tied second at four seats
    occupy 2nd and 3rd, (2 + 1) / 2 = 1.5 each."""
    result = table(("a", 40, 1), ("b", 20, 2), ("c", 20, 2), ("d", 10, 4))
    assert table_points("rank", result) == {"a": 3, "b": 1.5, "c": 1.5, "d": 0}


def test_rank_tie_written_densely_scores_the_same():
    """Places 1, 2, 2, 3 mean the same as 1, 2, 2, 4: the better placed seats come first."""
    dense = table(("a", 40, 1), ("b", 20, 2), ("c", 20, 2), ("d", 10, 3))
    assert table_points("rank", dense) == {"a": 3, "b": 1.5, "c": 1.5, "d": 0}


def test_rank_tied_first_split_the_top_points():
    """Two tied first at three seats occupy 1st and 2nd: (3 + 1.5) / 2 = 2.25 each."""
    result = table(("a", 7, 1), ("b", 7, 1), ("c", 2, 3))
    assert table_points("rank", result) == {"a": 2.25, "b": 2.25, "c": 0}


def test_rank_diplomacy_draw():
    """The seven-seat Diplomacy draw: positions earn 3 * (7 - k) / 6; the three eliminated
    powers share 5th to 7th, (1 + 0.5 + 0) / 3 = 0.5 each."""
    assert table_points("rank", DIPLOMACY) == {"England": 3, "Russia": 2.5, "Turkey": 2, "Italy": 1.5,
                                               "France": 0.5, "Germany": 0.5, "Austria": 0.5}


# --- points shares -------------------------------------------------------------------------

def test_share_diplomacy_draw():
    """Share: a seat's score as a percentage of the table's total (34 centres)."""
    assert rounded(table_points("share", DIPLOMACY)) == {
        "England": 35.29, "Russia": 26.47, "Turkey": 23.53, "Italy": 14.71,
        "France": 0, "Germany": 0, "Austria": 0}


def test_share_of_a_table_adds_to_100():
    result = table(("a", 7, 1), ("b", 5, 2), ("c", 1, 3))
    assert sum(table_points("share", result).values()) == pytest.approx(100)


def test_share_all_zero_splits_equally():
    """A table where every score is 0: nobody outscored anybody, each seat gets 100 / n."""
    result = table(("a", 0, 1), ("b", 0, 1), ("c", 0, 1), ("d", 0, 1))
    assert table_points("share", result) == {"a": 25, "b": 25, "c": 25, "d": 25}


# --- sum of squares ------------------------------------------------------------------------

def test_squares_diplomacy_draw():
    """Sum of squares: 100 * score^2 / (12^2 + 9^2 + 8^2 + 5^2 = 314)."""
    assert rounded(table_points("squares", DIPLOMACY)) == {
        "England": 45.86, "Russia": 25.8, "Turkey": 20.38, "Italy": 7.96,
        "France": 0, "Germany": 0, "Austria": 0}


def test_squares_lone_scorer_takes_all():
    """Only one seat scored: it takes the whole 100, as a Diplomacy solo does."""
    result = table(("a", 18, 1), ("b", 0, 2), ("c", 0, 2))
    assert table_points("squares", result) == {"a": 100, "b": 0, "c": 0}


def test_squares_all_zero_splits_equally():
    result = table(("a", 0, 1), ("b", 0, 1), ("c", 0, 1))
    assert rounded(table_points("squares", result)) == {"a": 33.33, "b": 33.33, "c": 33.33}


# --- bots and annulled results -------------------------------------------------------------

def test_bot_takes_its_share_but_earns_nothing():
    """A bot seat counts in the table's total but is not in the points: the players get
    30 / 60 and 10 / 60 of the table."""
    result = table(("a", 30, 1), ("bot", 20, 2), ("b", 10, 3), bots={"bot"})
    assert table_points("share", result) == {"a": 50, "b": pytest.approx(100 / 6)}


def test_bot_takes_its_place_but_earns_nothing():
    """A bot that wins pushes the players down a place: 2nd and 3rd of three, 1.5 and 0."""
    result = table(("a", 10, 2), ("bot", 30, 1), ("b", 5, 3), bots={"bot"})
    assert table_points("rank", result) == {"a": 1.5, "b": 0}


def test_void_result_earns_nothing():
    result = table(("a", 30, 1), ("b", 10, 2), void=True)
    assert table_points("rank", result) == {}


def test_void_result_leaves_the_standings_alone():
    counted = table(("a", 30, 1), ("b", 10, 2))
    annulled = table(("a", 0, 2), ("b", 50, 1), ("c", 0, 2), void=True)
    assert standings("share", [counted, annulled]) == standings("share", [counted])


# --- standings -----------------------------------------------------------------------------

def test_standings_of_a_small_season():
    """Three tables, rank points: a wins one and shares a win; b shares that win; the bot's
    win at the third table splits nobody's."""
    season = [
        table(("a", 9, 1), ("b", 5, 2), ("c", 1, 3)),          # a 3, b 1.5, c 0
        table(("a", 6, 1), ("b", 6, 1), ("c", 2, 3)),          # a 2.25, b 2.25, c 0
        table(("c", 4, 2), ("bot", 8, 1), ("b", 1, 3), bots={"bot"}),  # c 1.5, b 0
    ]
    assert standings("rank", season) == [
        Standing("a", points=5.25, games=2, wins=1.5, tiebreaks=(2.625, 1.5, 3), place=1),
        Standing("b", points=3.75, games=3, wins=0.5, tiebreaks=(1.25, 0.5, 2.25), place=2),
        Standing("c", points=1.5, games=3, wins=0, tiebreaks=(0.5, 0, 1.5), place=3),
    ]


def test_tiebreak_names_every_column():
    assert set(TIEBREAKS) == set(SYSTEMS)
    assert all(TIEBREAKS[system] == ("average", "wins", "best") for system in SYSTEMS)


def test_equal_points_fewer_games_first():
    """Equal points: the higher average per game (fewer games) is ahead."""
    season = [table(("a", 9, 1), ("b", 1, 2)),                      # a 3
              table(("b", 9, 1), ("c", 1, 2)),                      # b 3
              table(("b", 1, 2), ("c", 9, 1))]                      # b 0, c 3
    rows = standings("rank", season)
    assert [(row.player, row.points, row.games, row.place) for row in rows] == [
        ("a", 3, 1, 1), ("c", 3, 2, 2), ("b", 3, 3, 3)]


def test_equal_points_and_average_more_wins_first():
    """Equal points and games: more wins is ahead (a won once and came last once; b came
    second twice at three seats, 1.5 + 1.5)."""
    season = [table(("a", 9, 1), ("b", 5, 2), ("x", 1, 3)),
              table(("a", 0, 3), ("b", 5, 2), ("y", 9, 1))]
    rows = {row.player: row for row in standings("rank", season)}
    assert (rows["a"].points, rows["b"].points) == (3, 3)
    assert (rows["a"].place, rows["b"].place) == (2, 3)  # y with 3 points in one game is first
    assert rows["a"].wins == 1 and rows["b"].wins == 0


def test_equal_points_average_and_wins_best_result_first():
    """Equal points, games and wins: the better single result is ahead (shares 60 + 40 beat
    50 + 50)."""
    season = [table(("a", 60, 2), ("x", 40, 1)), table(("a", 40, 2), ("y", 60, 1)),
              table(("b", 50, 2), ("z", 50, 1)), table(("b", 50, 2), ("w", 50, 1))]
    rows = {row.player: row for row in standings("share", season)}
    assert rows["a"].points == rows["b"].points == 100
    assert rows["a"].tiebreaks == (50, 0, 60) and rows["b"].tiebreaks == (50, 0, 50)
    assert rows["a"].place < rows["b"].place


def test_exact_tie_shares_the_place_whatever_the_order():
    """The same shares in another order are an exact tie (exact arithmetic: no rounding can
    split them), so both hold 1st and the next is 3rd."""
    season = [table(("a", 1, 3), ("b", 2, 2), ("c", 4, 1)),
              table(("a", 2, 2), ("b", 4, 1), ("d", 1, 3)),
              table(("a", 4, 1), ("b", 1, 3), ("e", 2, 2))]
    rows = standings("share", season)
    assert [(row.player, row.place) for row in rows[:3]] == [("a", 1), ("b", 1), ("c", 3)]


# --- bad input -----------------------------------------------------------------------------

@pytest.mark.parametrize("system, result, message", [
    ("elo", table(("a", 1, 1), ("b", 0, 2)), "unknown scoring system"),
    ("rank", table(("a", 1, 1)), "at least two seats"),
    ("rank", table(("a", 1, 0), ("b", 0, 2)), "whole numbers from 1"),
    ("rank", table(("a", 1, 1), ("b", 0, 2), bots={"c"}), "bot seat needs a place"),
    ("share", table(("a", -1, 2), ("b", 3, 1)), "scores of 0 or more"),
    ("squares", TableResult(scores={"a": 1}, places={"a": 1, "b": 2}), "same seats"),
])
def test_bad_table_is_a_clear_error(system, result, message):
    with pytest.raises(ValueError, match=message):
        table_points(system, result)


def test_bad_table_in_a_season_is_an_error_not_a_skip():
    with pytest.raises(ValueError, match="scores of 0 or more"):
        standings("share", [table(("a", 1, 1), ("b", 0, 2)), table(("a", float("nan"), 1), ("b", 0, 2))])
