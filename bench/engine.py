"""Engine speed: whole random-bot games per second, and the cost of one order.

Everything runs in this one process, so on one core. Each figure is the median of
several runs. To show where the time goes, the same games are replayed from their
order objects (the engine alone, no bots), and from their text (parsing too).
"""
from __future__ import annotations

import statistics
import time
from typing import Any

from engine.aztlan.boardgen import generate_board
from engine.aztlan.bots import RandomBot, play_out
from engine.aztlan.game import GAME

RUNS = 5
GAMES = 200


def _record(seed: int, players: int) -> dict[str, Any]:
    return {"players": GAME.seating(seed, players), "seed": seed}


def _play(players: int, first_seed: int, keep: bool = False) -> list[Any]:
    """GAMES whole games; each is dropped once finished (as a worker drops the game it
    advanced) unless `keep`: kept games cost every later game the garbage collector's scans."""
    states = []
    for seed in range(first_seed, first_seed + GAMES):
        state = GAME.new_game(_record(seed, players))
        play_out(state, [RandomBot(f"{seed}:{i}") for i in range(players)])
        if keep:
            states.append(state)
    return states


def _timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def run() -> list[dict[str, Any]]:
    rows = []
    GAME.new_game(_record(0, 4))  # load and cache the default board and edition first
    for players in (4, 3, 2):
        times = [_timed(lambda: _play(players, run * GAMES)) for run in range(RUNS)]
        rate = GAMES / statistics.median(times)
        rows.append({"name": f"engine.random_bot_games_{players}p", "value": round(rate, 1),
                     "unit": "games/s", "runs": RUNS, "games_per_run": GAMES,
                     "target": 500 if players == 4 else None})
    kept = statistics.median(_timed(lambda: _play(4, run * GAMES, keep=True)) for run in range(RUNS))
    rows.append({"name": "engine.random_bot_games_4p_kept", "value": round(GAMES / kept, 1), "unit": "games/s",
                 "runs": RUNS, "games_per_run": GAMES,
                 "note": "the same, keeping every finished game of a run in memory (the garbage collector's share)"})

    games = _play(4, 0, keep=True)
    logs = [(state.setup, list(state.log), state.order_log()) for state in games]
    orders = sum(len(log) for _, log, _ in logs)

    def apply_only() -> None:
        for setup, log, _ in logs:
            state = type(games[0])(setup, games[0].masks)
            for s, order in log:
                state.apply(setup.seats[s], order)

    def parse_and_apply() -> None:
        for setup, _, lines in logs:
            state = type(games[0])(setup, games[0].masks)
            for line in lines:
                seat, text = line.split(": ", 1)
                state.apply(seat, state.parse(text)[0])

    def setup_only() -> None:
        for seed in range(GAMES):
            GAME.new_game(_record(seed, 4))

    generated = statistics.median(_timed(lambda: generate_board(12345)) for _ in range(RUNS))
    rows.append({"name": "engine.board_generation", "value": round(generated * 1000, 1), "unit": "ms",
                 "runs": RUNS, "note": "one seeded board from the generator (docs/boards.md)"})

    full = statistics.median(_timed(lambda: _play(4, 0)) for _ in range(RUNS))
    applied = statistics.median(_timed(apply_only) for _ in range(RUNS))
    parsed = statistics.median(_timed(parse_and_apply) for _ in range(RUNS))
    setup = statistics.median(_timed(setup_only) for _ in range(RUNS))
    rows += [
        {"name": "engine.apply_order", "value": round(applied / orders * 1e6, 2), "unit": "us/order",
         "orders_per_game": round(orders / GAMES, 1)},
        {"name": "engine.parse_and_apply_order", "value": round(parsed / orders * 1e6, 2),
         "unit": "us/order"},
        {"name": "engine.new_game", "value": round(setup / GAMES * 1e6, 1), "unit": "us/game"},
        {"name": "engine.time_share_rules", "value": round(applied / full, 3), "unit": "fraction",
         "note": "share of a random-bot game spent applying orders; the rest is bots and setup"},
        {"name": "engine.time_share_bots", "value": round((full - applied - setup) / full, 3),
         "unit": "fraction",
         "note": "what is left: the bots and the garbage collector"},
    ]
    return rows
