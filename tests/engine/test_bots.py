"""Bots: every bot plays only legal orders to the end; the heuristic bot is stronger than
chance; the minimal bot does the least a seat can do."""
from collections import Counter

import pytest

from engine.aztlan.bots import BOTS, HeuristicBot, MinimalBot, RandomBot, make_bot, play_out
from engine.aztlan.game import GAME
from engine.aztlan.orders import ChooseCard, Turn


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_bot_plays_whole_games(name, players):
    for seed in range(3):
        state = GAME.new_game({"players": GAME.seating(seed, players), "seed": seed})
        play_out(state, [make_bot(name, f"{seed}:{i}") for i in range(players)])
        assert state.is_over()
        assert len(state.age_scores) == 5


def test_heuristic_bot_beats_random_bots_more_often_than_chance():
    """One heuristic bot against three random bots wins far more than the 25% of chance."""
    wins = Counter()
    games = 40
    for seed in range(games):
        state = GAME.new_game({"players": GAME.seating(seed, 4), "seed": seed})
        smart = seed % 4
        play_out(state, [HeuristicBot(seed) if i == smart else RandomBot(f"{seed}:{i}") for i in range(4)])
        wins[state.seats.index(state.result()["winner"]) == smart] += 1
    assert wins[True] / games >= 0.45


def test_minimal_bot_does_the_least():
    state = GAME.new_game({"players": ["ocelot", "serpent", "quetzal"], "seed": 5})
    bot = MinimalBot()
    assert bot.order(state, 0) == ChooseCard(4)
    for s in range(3):
        state.apply(state.seats[s], ChooseCard(9 - s))
    turn = bot.order(state, state.waiting()[0])
    assert turn == Turn(state.board.territories[0].id)  # no pawns yet: the lowest-numbered
    assert turn.move is None and turn.eagle is None
    play_out(state, [bot, bot, bot])
    assert state.is_over()
    assert all(score["blessings"] == [] and score["rafts"] == []
               for age in state.age_scores for score in age.values())


def test_bots_are_deterministic_for_a_seed():
    logs = []
    for _ in range(2):
        state = GAME.new_game({"players": GAME.seating(9, 3), "seed": 9})
        play_out(state, [make_bot("heuristic", 1), make_bot("random", 2), make_bot("minimal", 3)])
        logs.append(state.order_log())
    assert logs[0] == logs[1]


def test_unknown_bot_is_refused():
    with pytest.raises(ValueError, match="unknown bot 'genius'; known: random, heuristic, minimal"):
        make_bot("genius")


def test_minimal_bot_never_attacks_nor_plays_cards():
    """Across whole games against random bots, the minimal seat only coexists, lets ties
    stand, accepts battles, never moves, never plays Eagle and Jaguar, and scores bare."""
    seen = Counter()
    for seed in range(6):
        state = GAME.new_game({"players": GAME.seating(seed, 4), "seed": seed})
        bots = [MinimalBot() if i == 0 else RandomBot(f"{seed}:{i}") for i in range(4)]
        play_out(state, bots)
        for line in state.order_log():
            seat, order = line.split(": ", 1)
            if seat == state.seats[0]:
                verb = order.split()[0]
                seen[verb] += 1
                assert verb in ("card", "place", "coexist", "tie", "accept", "score"), line
                assert " move " not in order and " eagle " not in order, line
                assert order == "score" or verb != "score", line
    assert seen["place"] and seen["card"] == 30
