"""Azteca's heuristic bot: whole seeded games to their end with every order legal, and its
strength against random bots over 200 seeded games."""
from __future__ import annotations

import pytest

from engine.azteca import GAME
from engine.azteca.orders import Play
from engine.azteca.war_orders import Move
from tests.engine.azteca.test_rules_war import board, order, turn

SEEDS = range(20)


def play(seed: int, kinds: list[str]):
    state = GAME.new_game({"game": "azteca", "seed": seed, "players": GAME.seating(seed, len(kinds))})
    bots = [GAME.make_bot(kind, f"{seed}:{i}") for i, kind in enumerate(kinds)]
    for _ in range(5_000):
        if state.is_over():
            return state
        s = state.waiting()[0]
        order = bots[s].order(state, s)
        assert state.parse(state.order_text(order)) == [order]
        state.apply(state.seats[s], order)  # raises on an illegal order
    raise AssertionError("the game did not end")


def test_the_heuristic_bot_is_registered():
    assert "heuristic" in GAME.bots
    assert GAME.make_bot("heuristic", 1).name == "heuristic"


@pytest.mark.parametrize("players", [3, 4])
def test_the_heuristic_bot_plays_seeded_games_to_their_end(players):
    """20 seeded games, one heuristic bot (seat rotating) against random bots, each ends with a
    well-formed result; the same seed plays the same game."""
    for seed in SEEDS:
        kinds = ["random"] * players
        kinds[seed % players] = "heuristic"
        state = play(seed, kinds)
        assert set(state.result().ranking) == set(state.seats)
    assert play(3, ["heuristic"] * players).order_log() == play(3, ["heuristic"] * players).order_log()


def test_one_heuristic_bot_wins_half_of_200_games_against_three_random_bots():
    """Seat rotating over 200 seeded 4-player games; a game where Tezcatlipoca ends the world
    has no winner.  Measured: 117 wins of 200 (5 games everyone lost)."""
    wins = 0
    for seed in range(200):
        kinds = ["random"] * 4
        kinds[seed % 4] = "heuristic"
        state = play(seed, kinds)
        wins += state.result().winner == state.seats[seed % 4]
    assert wins >= 100


def test_the_heuristic_bot_plays_uitzilpochtli_on_the_territory_it_attacks():
    """The heuristic gives Uitzilpochtli with the move of an army that attacks, naming the
    territory attacked, then moves (docs/rules-azteca.md, "Bots")."""
    state = turn(board({"toltecs": {"A": ("colhuacan", 0, 4)}}), "toltecs")
    state.markers = {"tizapan": 2}
    state.people[1].hand = ["uitzilpochtli", "raid"]
    bot = GAME.make_bot("heuristic", 1)
    assert bot.order(state, 1) == Play("uitzilpochtli", "tizapan")
    state.apply("toltecs", Play("uitzilpochtli", "tizapan"))
    assert bot.order(state, 1) == Move("A", ("tizapan",))


def test_the_random_bot_moves_the_army_a_kept_reorganisation_waits_for():
    """A reorganisation kept for the move (14.5, "crosses ... a territory containing an army of
    his color") binds the random bot's move to cross where the other box stands."""
    state = turn(board({"toltecs": {"A": ("colhuacan", 2, 0), "B": ("xochimilco", 1, 1)}},
                       {"xochimilco": "toltecs"}), "toltecs")
    order(state, "toltecs", "reorganise A 2w 1j, B 1w")
    bot = GAME.make_bot("random", 1)
    bot.rng.random = lambda: 0.99  # no card play
    assert bot.order(state, 1) == Move("A", ("xochimilco",))
