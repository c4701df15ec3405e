"""Cóatl's bots and views: the heuristic beats the random bot clearly, and a view shows a seat
its own secrets only."""
from __future__ import annotations

import json

from engine.coatl import GAME
from engine.coatl.views import bot_view
from engine.core import play_out
from tests.engine.coatl.coatl_support import new_game
from tests.engine.coatl.measure import measure


def test_the_heuristic_beats_three_random_bots_in_most_of_200_games():
    """Issue 15: "over 200 seeded 4-player games the heuristic bot wins at least half against
    three random bots" (docs/rules-coatl.md, "Bots", gives the measured figure)."""
    outcome = measure(200, 4)
    assert outcome["heuristic_wins"] >= 100, outcome
    assert outcome["heuristic_mean"] > 3 * outcome["random_mean"], outcome


def test_the_heuristic_beats_random_clearly_head_to_head():
    outcome = measure(20, 2)
    assert outcome["heuristic_wins"] >= 17 and outcome["heuristic_mean"] > 3 * outcome["random_mean"]


def test_heuristic_games_end_for_every_player_count():
    for players in (2, 3, 4):
        state = new_game(players, seed=f"bots:{players}")
        play_out(state, [GAME.make_bot("heuristic", s) for s in range(players)])
        assert state.is_over() and sum(state.result().scores.values()) > 0


def test_a_view_shows_its_own_hand_temple_and_draw_only():
    """Hidden information: prophecy hands, the secret temple card, the setup draw."""
    state = new_game(3)
    macaw, quetzal = state.view("macaw"), state.view("quetzal")
    assert macaw["me"]["dealt"] == sorted(state.players[0].dealt)
    assert macaw["me"]["temples"] == state.players[0].temples
    text = json.dumps(quetzal) + json.dumps(state.view(None))
    assert '"dealt": [' + ", ".join(map(str, sorted(state.players[0].dealt))) + "]" not in text
    assert "me" not in state.view(None)
    for reader in (quetzal, state.view(None)):
        assert all(set(seat) == set(macaw["seats"][0]) for seat in reader["seats"])
        assert "deck" in reader and isinstance(reader["deck"], int) and isinstance(reader["bags"]["body"], int)


def test_the_bots_view_is_part_of_the_seats_view():
    """The bots read `bot_view`, built for speed: at every decision of a game it must hold
    exactly what the seat's full view says, and so nothing the seat may not see."""
    state = new_game(3, seed="bot-view")
    bots = [GAME.make_bot("random", s) for s in range(3)]
    checked = 0
    while not state.is_over():
        s = state.waiting()[0]
        full, part = state.view(state.seats[s]), bot_view(state, s)
        assert part["seat"] == full["seats"][s] and part["me"] == full["me"]
        assert {key: full[key] for key in part if key not in ("seat", "me")} == \
            {key: value for key, value in part.items() if key not in ("seat", "me")}
        state.apply(state.seats[s], bots[s].order(state, s))
        checked += 1
    assert checked > 50
