"""Seating a league's rounds (pbem/leagues/seating.py, docs/leagues.md "Seating"): exact designs
give seasons without a repeated pair, the search stays near what can be argued as the least
possible, first seats are balanced, bots and short tables follow the documented rule, and a
withdrawal or a replacement mid-season keeps the season going."""
from __future__ import annotations

from collections import Counter

import pytest

from pbem.leagues.seating import plan_season, repeated_pairs, seat_balance, seat_round, table_shapes


def names(count: int) -> list[str]:
    return [f"player{number:03}" for number in range(count)]


def assert_round_seats(round_, players, shapes):
    """Everyone seated exactly once, nobody else, tables of the rule's (people, seats)."""
    seated = [player for table in round_ for player in table if player is not None]
    assert sorted(seated) == sorted(players)
    got = sorted(((sum(p is not None for p in table), len(table)) for table in round_), reverse=True)
    assert got == sorted(shapes, reverse=True)
    for table in round_:
        assert table[0] is not None, "a person sits first"
        assert None not in table[:sum(p is not None for p in table)], "bots take the last seats"


def first_seat_spread(season) -> int:
    firsts = [seats[0] for seats in seat_balance(season).values()]
    return max(firsts) - min(firsts)


# Exact designs: (players, table size, rounds), the seasons the issue names and a few more.
DESIGNS = [
    (9, 3, 4),    # AG(2, 3): 4 parallel classes
    (15, 3, 7),   # Kirkman's schoolgirls
    (16, 4, 5),   # AG(2, 4) over GF(4)
    (32, 4, 3),   # cosets of a partial spread of GF(2)^5 (9 rounds exist)
    (32, 4, 9),
    (12, 2, 11),  # round robin, circle method
    (27, 3, 13),  # AG(3, 3)
]


@pytest.mark.parametrize("count,size,rounds", DESIGNS)
def test_designs_give_seasons_without_a_repeated_pair(count, size, rounds):
    for seed in (1, "league-7"):
        season = plan_season(names(count), size, rounds, seed)
        assert repeated_pairs(season) == 0
        for round_ in season:
            assert_round_seats(round_, names(count), [(size, size)] * (count // size))


@pytest.mark.parametrize("count,size,rounds", DESIGNS)
def test_designs_balance_first_seats_to_within_one(count, size, rounds):
    """Every table full and everyone in every round: the first seats can differ by at most
    one between players at the end of the season, and they do."""
    for seed in range(3):
        assert first_seat_spread(plan_season(names(count), size, rounds, seed)) <= 1


def test_a_round_robin_meets_everyone_once_and_moves_first_half_the_time():
    season = plan_season(names(10), 2, 9, seed=3)
    meetings = Counter(frozenset(table) for round_ in season for table in round_)
    assert len(meetings) == 45 and set(meetings.values()) == {1}
    assert {seats[0] for seats in seat_balance(season).values()} <= {4, 5}


def test_the_other_seats_are_spread_too():
    """16 players, 5 rounds of fours: nobody sits in one seat more than twice."""
    season = plan_season(names(16), 4, 5, seed=2)
    assert max(max(seats) for seats in seat_balance(season).values()) <= 2


def test_the_design_is_relabelled_by_the_seed():
    first = plan_season(names(9), 3, 1, seed=1)[0]
    second = plan_season(names(9), 3, 1, seed=2)[0]
    assert {frozenset(table) for table in first} != {frozenset(table) for table in second}


def test_the_same_seed_gives_the_same_season_and_another_seed_another():
    for count, size in ((9, 3), (20, 4)):
        once = plan_season(names(count), size, 3, seed="spring")
        assert plan_season(names(count), size, 3, seed="spring") == once
        assert plan_season(names(count), size, 3, seed="autumn") != once


# The search, on counts without a design.  Each bound is argued in the comment; the search
# must reach at most `most` repeated pairs for every seed tried.
SEARCHED = [
    # 20 in fours: 30 pairs a round, 150 of 190 in 5 rounds: 0 is possible by counting.
    (20, 4, 5, 2, 5),
    # 20 in threes (3 x 6 + 2): 19 pairs a round: 0 by counting.
    (20, 3, 5, 2, 0),
    # 10 in threes (3, 3, 2, 2): 8 pairs a round, 40 of 45: 0 by counting.
    (10, 3, 5, 2, 2),
    # 11 in threes (3, 3, 3, 2): 10 pairs a round, 50 of 55: 0 by counting.
    (11, 3, 5, 2, 3),
    # 10 in fours (4, 3, 3): the table of four takes two of the same table of the round
    # before, so every round after the first repeats a pair: at least 2 in 3 rounds.
    (10, 4, 3, 2, 3),
    # 11 in fours (4, 4, 3): both tables of four repeat a pair: at least 4 in 3 rounds.
    (11, 4, 3, 2, 6),
    # 12 in fours: every table of four after round one holds two of a first-round table:
    # at least 3 a round, 6 in 3 rounds.
    (12, 4, 3, None, 8),
]


@pytest.mark.parametrize("count,size,rounds,min_size,most", SEARCHED)
def test_the_search_stays_near_the_least_possible_repeats(count, size, rounds, min_size, most):
    for seed in range(2):
        season = plan_season(names(count), size, rounds, seed, min_size=min_size)
        assert repeated_pairs(season) <= most
        for round_ in season:
            assert_round_seats(round_, names(count), table_shapes(count, size, min_size))


def test_counts_a_few_short_of_a_design_use_it_with_holes():
    """13 in threes is Kirkman's 15 less two holes (met only in its last round): 6 rounds
    without a repeat; 14 in threes with bot seats: all 7; 13 in fours: AG(2, 4) less 3."""
    assert repeated_pairs(plan_season(names(13), 3, 6, seed=1, min_size=2)) == 0
    assert repeated_pairs(plan_season(names(14), 3, 7, seed=1)) == 0
    assert repeated_pairs(plan_season(names(13), 4, 4, seed=1, min_size=3)) == 0


def test_the_search_balances_first_seats_on_full_tables():
    """20 in fours, 5 rounds: 25 first seats for 20 players, so some sit first twice; no
    player sits first twice while another never does."""
    assert first_seat_spread(plan_season(names(20), 4, 5, seed=4)) <= 1


def test_a_hundred_players_are_seated_without_repeats():
    season = plan_season(names(100), 4, 4, seed=1)
    assert repeated_pairs(season) == 0
    assert_round_seats(season[-1], names(100), [(4, 4)] * 25)


# The rule for counts that do not divide.

def test_table_shapes_follow_the_documented_rule():
    assert table_shapes(12, 4) == [(4, 4)] * 3
    assert table_shapes(10, 4, 3) == [(4, 4), (3, 3), (3, 3)]    # short tables
    assert table_shapes(10, 4) == [(4, 4), (3, 4), (3, 4)]       # a bot seat each
    assert table_shapes(5, 4, 3) == [(3, 3), (2, 3)]             # a bot up to the minimum
    assert table_shapes(7, 2) == [(2, 2)] * 3 + [(1, 2)]         # a game against a bot
    assert table_shapes(0, 3) == []


def test_an_odd_round_robin_gives_everyone_one_bot_game():
    season = plan_season(names(7), 2, 7, seed=5)
    assert repeated_pairs(season) == 0
    bot_games = Counter(table[0] for round_ in season for table in round_ if None in table)
    assert sorted(bot_games.values()) == [1] * 7


def test_bot_seats_go_to_different_tables_and_rotate():
    """20 in threes without a minimum: 7 tables, one bot seat; 6 rounds of it reach
    6 different players."""
    season = plan_season(names(20), 3, 6, seed=1)
    with_bot = [player for round_ in season for table in round_ if None in table for player in table if player]
    assert all(sum(None in table for table in round_) == 1 for round_ in season)
    assert len(with_bot) == 12 and max(Counter(with_bot).values()) == 1


# Changes between rounds.

def test_a_withdrawal_mid_season_keeps_the_design_going():
    """Kirkman's 15: one leaves after round 3; the point they held becomes a hole, so the
    other 14 still meet nobody twice in rounds 4 to 7."""
    players = names(15)
    season = plan_season(players, 3, 3, seed=9, min_size=2)
    left = players.pop(6)
    for _ in range(4):
        round_ = seat_round(players, 3, season, seed=9, min_size=2)
        assert_round_seats(round_, players, table_shapes(14, 3, 2))
        season.append(round_)
    assert repeated_pairs(season) == 0
    assert all(left not in table for round_ in season[3:] for table in round_)


def test_a_replacement_takes_the_leavers_place_in_the_design():
    players = names(16)
    season = plan_season(players, 4, 2, seed=9)
    players[3] = "newcomer"
    for _ in range(3):
        season.append(seat_round(players, 4, season, seed=9))
    assert repeated_pairs(season) == 0
    assert all(sum("newcomer" in table for table in round_) == 1 for round_ in season[2:])


def test_a_withdrawal_in_a_searched_season():
    players = names(20)
    season = plan_season(players, 4, 2, seed=3, min_size=3)
    players.remove("player011")
    for _ in range(3):
        round_ = seat_round(players, 4, season, seed=3, min_size=3)
        assert_round_seats(round_, players, table_shapes(19, 4, 3))
        season.append(round_)
    assert repeated_pairs(season) <= 2


def test_past_rounds_that_left_the_design_are_searched_from():
    """An organiser's override of round 1 (everyone in seat order, four by four) is not the
    design; the rounds after it still avoid every pair of it."""
    players = names(16)
    override = [players[start:start + 4] for start in range(0, 16, 4)]
    season = [override]
    for _ in range(2):
        season.append(seat_round(players, 4, season, seed=1))
    assert repeated_pairs(season) == 0


# The measures and bad input.

def test_repeated_pairs_counts_extra_meetings_and_not_bots():
    rounds = [[["a", "b", None], ["c", "d", None]], [["a", "b", None], ["c", None, None]],
              [["a", "b", "c"]]]
    assert repeated_pairs(rounds) == 2  # a-b met three times; a-c, b-c once


def test_seat_balance_counts_each_position():
    rounds = [[["a", "b", None]], [["b", "a", "c"]]]
    assert seat_balance(rounds) == {"a": [1, 1, 0], "b": [1, 1, 0], "c": [0, 0, 1]}


@pytest.mark.parametrize("players,size,min_size,message", [
    (["a", "b"], 1, None, "at least 2"),
    (["a", "b"], 4, 1, "min_size"),
    (["a", "b"], 4, 5, "min_size"),
    (["a", "b", "a"], 2, None, "listed twice: a"),
])
def test_bad_input_is_refused_clearly(players, size, min_size, message):
    with pytest.raises(ValueError, match=message):
        seat_round(players, size, [], seed=1, min_size=min_size)
