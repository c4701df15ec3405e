"""Azteca's phase 4, the slave market (11.0), one rule case a test (DATC style; readings in
docs/rules-azteca.md).  The market's cards are set directly: lot 1 is worth 3, lot 2 0, lot 3
1, lot 4 2."""
from __future__ import annotations

import pytest

from engine.core import IllegalOrderError
from tests.engine.azteca.azteca_support import events, new_game, order, to_phase

LOTS = [3, 0, 1, 2]


def _market(tributes=(5, 5, 5, 5), players: int = 4):
    state = to_phase(new_game(players), "purchase")
    for person, amount in zip(state.people, tributes):
        person.tributes = amount
    while state.phase == "purchase":
        order(state, state.seats[state.waiting()[0]], "buy nothing")
    if state.market:
        state.market = list(LOTS)
    return state


def _looks(state, looks=None):
    while state.waiting() and state.owed[state.waiting()[0]] == "look":
        s = state.waiting()[0]
        order(state, state.seats[s], (looks or {}).get(state.seats[s], "look 1 2"))


def _bids(state, bids):
    for s in list(state.waiting()):
        order(state, state.seats[s], bids.get(state.seats[s], "bid none"))


def test_a_player_without_tributes_cannot_take_part():
    """11.0: "A player that does not have any Tributes cannot participate in the Slave Market"."""
    state = _market((5, 0, 5, 5))
    assert state.bidders == [0, 2, 3]
    _looks(state)
    assert state.waiting() == [0, 2, 3] and 1 not in state.owed


def test_no_tributes_anywhere_no_market():
    """11.0: nobody has Tributes, so nobody takes part and the market is not held."""
    state = _market((0, 0, 0, 0))
    assert state.phase == "pochtecas" and events(state, "market-empty")


def test_each_player_in_turn_looks_at_two_cards_that_only_he_sees():
    """11.0: "each player in turn looks at 2 cards of his choice ... No one can reveal what he has
    just seen"."""
    state = _market()
    assert state.owed == {0: "look"}
    with pytest.raises(IllegalOrderError, match="2 different cards"):
        order(state, "aztecs", "look 1 1")
    order(state, "aztecs", "look 1 4")
    assert state.view("aztecs")["me"]["looked"] == {"1": 3, "4": 2}
    assert state.view("toltecs")["me"]["looked"] == {}
    assert events(state, "looked", "toltecs")[-1]["lots"] == [1, 4]
    assert "my-look" not in str(state.view("toltecs")["events"])
    assert state.owed == {1: "look"}


def test_bids_are_sealed_and_revealed_together():
    """11.0: "each player secretly chooses the marker ... and bids a part of his Tributes ...
    and reveal them simultaneously"."""
    state = _market()
    _looks(state)
    assert all(d.kind == "bid" and d.simultaneous for d in state.decisions())
    twin = state.clone()
    order(state, "aztecs", "bid 1 3")
    order(twin, "aztecs", "bid 2 1")
    assert state.view("toltecs") == twin.view("toltecs")


def test_a_lone_bidder_wins_the_lot():
    """11.0: "A player who bid alone on a lot wins the corresponding Sacrifice points"
    (pbem reading: he pays his bid)."""
    state = _market()
    _looks(state)
    _bids(state, {"toltecs": "bid 1 2"})
    assert state.people[1].sacrifice == 3 and state.people[1].tributes == 3
    assert events(state, "my-lot", "toltecs")[-1]["points"] == 3
    assert not events(state, "my-lot", "aztecs")


def test_a_bid_of_nothing_cannot_win():
    """11.0: "A player who did not bid any Tributes cannot win a lot"."""
    state = _market()
    _looks(state)
    _bids(state, {"toltecs": "bid 1 0"})
    assert state.people[1].sacrifice == 0 and not events(state, "lot-won")


def test_the_highest_bid_takes_the_lot_the_others_recover_theirs():
    """11.0: "the one that put the highest tribute on it takes it and the other players recover
    their bids"."""
    state = _market()
    _looks(state)
    _bids(state, {"aztecs": "bid 4 2", "toltecs": "bid 4 3", "chichimecs": "bid 4 1"})
    assert [p.tributes for p in state.people] == [5, 2, 5, 5]
    assert state.people[1].sacrifice == 2


def test_no_bid_above_the_tributes_held():
    """11.0: players bid "a part of his Tributes"."""
    state = _market()
    _looks(state)
    with pytest.raises(IllegalOrderError, match="you have 5 Tributes"):
        order(state, "aztecs", "bid 1 6")


def test_a_tie_re_bids_in_secret():
    """11.0: "If there is a tie, then the tied players rebid ... The bids are again performed
    secretly"."""
    state = _market()
    _looks(state)
    _bids(state, {"aztecs": "bid 1 2", "toltecs": "bid 1 2", "chichimecs": "bid 3 1"})
    assert state.people[2].sacrifice == 1  # the other lot is settled
    assert state.owed == {0: "rebid", 1: "rebid"}
    assert [d.scope for d in state.decisions()] == [(1,), (1,)]
    with pytest.raises(IllegalOrderError, match="lot 1 only"):
        order(state, "aztecs", "bid 2 1")
    twin = state.clone()
    order(state, "aztecs", "bid 1 4")
    order(twin, "aztecs", "bid 1 1")
    assert state.view("toltecs") == twin.view("toltecs")


def test_the_higher_re_bid_takes_the_lot():
    """11.0: "the player who bid the most takes it"."""
    state = _market()
    _looks(state)
    _bids(state, {"aztecs": "bid 1 2", "toltecs": "bid 1 2"})
    _bids(state, {"aztecs": "bid 1 4", "toltecs": "bid 1 3"})
    assert state.people[0].sacrifice == 3 and state.people[0].tributes == 1
    assert state.people[1].tributes == 5 and state.people[1].sacrifice == 0


def test_a_second_tie_loses_both_bids_and_nobody_takes_the_lot():
    """11.0: "If there is still a tie, both players lose their Tributes and no one takes the lot"."""
    state = _market()
    _looks(state)
    _bids(state, {"aztecs": "bid 1 2", "toltecs": "bid 1 2"})
    _bids(state, {"aztecs": "bid 1 3", "toltecs": "bid 1 3"})
    assert [p.tributes for p in state.people[:2]] == [2, 2]
    assert [p.sacrifice for p in state.people[:2]] == [0, 0]
    assert events(state, "lot-lost")[-1]["lot"] == 1
    assert state.phase == "pochtecas"


def test_a_tied_player_may_decline_to_re_bid():
    """11.0: "Players can decide not to bid anything"."""
    state = _market()
    _looks(state)
    _bids(state, {"aztecs": "bid 1 2", "toltecs": "bid 1 2"})
    _bids(state, {"aztecs": "bid none", "toltecs": "bid 1 1"})
    assert state.people[1].sacrifice == 3 and state.people[0].tributes == 5


def test_the_market_is_dealt_afresh_each_turn():
    """11.0: "The first player shuffles the 4 Slave Market cards ... He randomly deals them"."""
    state = _market()
    assert sorted(state.market) == sorted(state.edition.slave_market)
    _looks(state)
    _bids(state, {})
    assert state.market == [] and all(not p.looked for p in state.people)
