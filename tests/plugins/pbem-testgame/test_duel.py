"""Duel's own rules: what the conformance suite cannot know about it."""
from __future__ import annotations

import pytest

from duel import GAME
from duel.rules import Bid, Pick
from engine.core import IllegalOrderError, NotYourDecisionError, ParseError, SetupError


def new(options=None, players=("red", "green", "blue"), seed=1):
    return GAME.new_game({"game": "duel", "seed": seed, "players": list(players), "options": options or {}})


def test_bids_are_secret_until_all_are_in_then_paid_and_the_highest_picks_first():
    state = new()
    state.submit("red", state.parse("bid 2"))
    state.submit("green", state.parse("bid 4"))
    assert state.view("red")["me"]["bid"] == 2
    assert [seat["bid"] for seat in state.view("red")["seats"]] == [None, None, None]
    assert [seat["has_bid"] for seat in state.view(None)["seats"]] == [True, True, False]
    assert [seat["coins"] for seat in state.view(None)["seats"]] == [10, 10, 10]
    state.submit("blue", [Bid(4)])  # equal bids: the earlier seat picks first
    view = state.view(None)
    assert [seat["bid"] for seat in view["seats"]] == [2, 4, 4]
    assert [seat["coins"] for seat in view["seats"]] == [8, 6, 6]
    assert view["turn_order"] == ["green", "red", "blue"]
    assert [d.seat for d in state.decisions()] == ["green"]


def test_orders_errors_say_what_was_expected():
    state = new()
    with pytest.raises(ParseError, match="line 2: 'bid x': expected a number after 'bid'"):
        state.parse("bid 1\nbid x")
    with pytest.raises(ParseError, match="expected an order \\(bid N or pick N\\), found 'bet'"):
        state.parse("bet 3")
    with pytest.raises(ParseError, match="expected the end of the line, found 'now'"):
        state.parse("pick 3 now")
    with pytest.raises(IllegalOrderError, match="you may bid 1 to 5 coins"):
        state.apply("red", Bid(6))
    with pytest.raises(IllegalOrderError, match="asks you for your secret bid"):
        state.apply("red", Pick(3))
    state.apply("red", Bid(1))
    with pytest.raises(NotYourDecisionError):
        state.apply("red", Bid(1))


def test_a_bid_keeps_one_coin_for_each_later_round():
    state = new({"rounds": 9}, players=("red", "green"))
    assert state.decisions()[0].options == {"low": 1, "high": 2}


def one_round(tie_break, gap, bids):
    """A two-player, one-round game whose row's two best tokens differ by `gap` (the first
    such seed), with these bids; each takes the best token left."""
    for seed in range(1000):
        state = new({"rounds": 1, "tie_break": tie_break}, players=("red", "green"), seed=seed)
        if state.row[-1] - state.row[-2] == gap:
            break
    state.submit("red", [Bid(bids[0])])
    state.submit("green", [Bid(bids[1])])
    while not state.is_over():
        state.submit(state.seats[state.waiting()[0]], [Pick(max(state.row))])
    return state.result()


def test_equal_scores_split_by_coins_spent_else_share_a_place():
    # Red pays one coin more for the token worth one point more: equal scores.
    result = one_round("least-spent", 1, (2, 1))
    assert result.scores["red"] == result.scores["green"]
    assert result.ranking == ("green", "red") and result.winner == "green" and not result.shared
    result = one_round("none", 1, (2, 1))
    assert result.places == {"red": 1, "green": 1} and result.winner is None
    assert result.to_json()["places"] == {"red": 1, "green": 1}
    # Equal tokens, equal bids: no tie-break separates them.
    result = one_round("least-spent", 0, (1, 1))
    assert result.places == {"red": 1, "green": 1} and result.to_json()["winner"] is None


def test_a_record_must_name_the_game_and_valid_seats():
    with pytest.raises(SetupError, match="game"):
        GAME.new_game({"seed": 1, "players": ["red", "green"]})
    with pytest.raises(SetupError, match="each once"):
        new(players=("red", "red"))
