"""Azteca's game page with the options of 18.0 on: the reader's open offers are shown to the
offer's two parties alone, and leave to use boats (public) to everyone."""
from __future__ import annotations

import json

from engine.azteca.game import GAME
from pbem.games.azteca import pages

OPTIONS = {"big_deal": "on", "pirogue_express": "on"}


def after_setup(seed: int = 5):
    """A 4-player game with deals on, its preparation played by random bots (deals are not
    made during the preparation)."""
    state = GAME.new_game({"game": "azteca", "players": GAME.seating(seed, 4), "seed": seed, "options": OPTIONS})
    bots = [GAME.make_bot("random", f"{seed}:{s}") for s in range(4)]
    while state.deal_choices(state.waiting()[0]) == {}:
        s = state.waiting()[0]
        state.apply(state.seats[s], bots[s].order(state, s))
    return state


def test_an_open_offer_is_on_the_page_of_its_two_parties_only():
    state = after_setup()
    giver, to, third = state.waiting()[0], *[s for s in range(4) if s != state.waiting()[0]][:2]
    state.submit(state.seats[giver], state.parse(f"offer {state.seats[to]} 1 tributes for nothing"))
    shown = {s: pages.page_context(state.view(state.seats[s]))["mine"]["offers"] for s in (giver, to, third)}
    offer = {"from": state.seats[giver], "to": state.seats[to], "number": 1, "give": "1 tributes", "take": "nothing"}
    assert shown[giver] == [offer] and shown[to] == [offer]
    assert shown[third] == []
    assert '"give"' not in json.dumps(state.view(None))  # a spectator's view holds no offer


def test_boats_lent_are_on_everyones_page():
    state = after_setup()
    lender = state.waiting()[0]
    borrower = next(s for s in range(4) if s != lender)
    state.submit(state.seats[lender], state.parse(f"lend {state.seats[borrower]} boats all"))
    for reader in (*state.seats, None):
        loans = pages.page_context(state.view(reader))["loans"]
        assert loans and {(lender_seat, borrower_seat) for lender_seat, borrower_seat, _ in loans} == \
            {(state.seats[lender], state.seats[borrower])}, reader
