"""Engine speed: whole random-bot games per second for every registered game, and, for
Aztlán, the cost of one order.

Everything runs in this one process, so on one core, and is timed in this process's CPU
time (`time.process_time`): on a shared, loaded machine wall time counts other programs'
turns too. Each figure is the median of several runs. Every game is played through the game contract alone (`engine.get_game`,
its `random` bot, `engine.core.play_out`), one row per game and player count, named
`engine.<game>.random_bot_games_<n>p`; the runs use different seeds, so each row plays
RUNS x GAMES = 1,000 distinct games (what each game's issue asks to end without error) and
reports `games_ended` and `errors`: games that raised (an illegal bot order, a rules error) or
did not end, with the first one's seed and message. To show where Aztlán's time goes, its
games are replayed from their order objects (the engine alone, no bots), and from their text
(parsing too).
"""
from __future__ import annotations

import statistics
import time
from typing import Any

import engine
from engine.aztlan.boardgen import generate_board
from engine.aztlan.game import GAME
from engine.core import play_out
from engine.records import replay

RUNS = 5
GAMES = 200
WARM_GAMES = 5


# What a row's figure was before the last change made for it, measured back to back.
_BASELINES = {
    ("aztlan", 4): "issue 18 (>= 1,000 games/s): before scoring and events were kept compact until "
                   "read and the bot drew inline, the same games ran at 627 against 871 games/s "
                   "(1.39x; CPU time, medians of 5 interleaved runs on a loaded 2-core machine)",
}


class _Failures:
    """The games of a row that failed, and the first failure."""

    def __init__(self) -> None:
        self.count = 0
        self.first: str | None = None

    def add(self, seed: int, error: str) -> None:
        self.count += 1
        self.first = self.first or f"game {seed}: {error}"


def _play_game(name: str, players: int, first_seed: int, count: int = GAMES, keep: bool = False,
               failures: _Failures | None = None) -> list[Any]:
    """`count` whole random-bot games of a registered game, through the contract alone; each
    is dropped once finished (as a worker drops the game it advanced) unless `keep`: kept
    games cost every later game the garbage collector's scans.  A game that raises or does not
    end is counted in `failures`, or raises when there are none to count it in."""
    game = engine.get_game(name)
    states = []
    for seed in range(first_seed, first_seed + count):
        try:
            state = game.new_game({"game": name, "players": game.seating(seed, players), "seed": seed})
            play_out(state, [game.make_bot("random", f"{seed}:{i}") for i in range(players)])
            if not state.is_over():
                raise RuntimeError("the game did not end")
            state.result()
        except Exception as error:  # a bench row counts every failure rather than stopping at one
            if failures is None:
                raise RuntimeError(f"{name} game {seed}: {error}") from error
            failures.add(seed, f"{type(error).__name__}: {error}")
            continue
        if keep:
            states.append(state)
    return states


def _play(players: int, first_seed: int, keep: bool = False) -> list[Any]:
    """GAMES whole games of Aztlán."""
    return _play_game("aztlan", players, first_seed, keep=keep)


def _timed(work) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def _replay_row(games: list[Any]) -> dict[str, Any]:
    """How long the service waits to rebuild a game from its record (pbem/services/state.py):
    each finished game's record (setup and order lines) replayed whole, RUNS times; the median
    over every replay.  Beside it, the same run's floor: the game's order objects applied to a
    new game, with no parsing and no setup from the record."""
    records = [{"game": "aztlan", "players": list(state.seats), "seed": state.setup.seed,
                "orders": state.order_log()} for state in games]
    replays, floors = [], []
    for _ in range(RUNS):
        for record, state in zip(records, games):
            start = time.process_time()
            replay(record)
            replays.append(time.process_time() - start)
            start = time.process_time()
            fresh = type(state)(state.setup, state.masks)
            for s, order in zip(state.applied_by, state.applied):
                fresh.apply(state.seats[s], order)
            floors.append(time.process_time() - start)
    return {"name": "engine.aztlan.replay_ms", "value": round(statistics.median(replays) * 1000, 3), "unit": "ms",
            "apply_only_ms": round(statistics.median(floors) * 1000, 3), "runs": RUNS, "records": len(records),
            "orders_per_record": round(statistics.mean(len(record["orders"]) for record in records), 1),
            "target": 5,
            "note": "median time to replay a whole 4-player random-bot game from its record (issue 18: <= 5 ms); "
                    "apply_only_ms is the same run's floor, its orders applied without parsing; baseline: "
                    "before the engine was made faster for issue 18 (every line parsed anew, events built as "
                    "dicts) the same replays took 2.1x as long (3.2 ms against 1.5 ms back to back, CPU time "
                    "on a loaded 2-core machine)"}


def run() -> list[dict[str, Any]]:
    rows = []
    GAME.new_game({"players": GAME.seating(0, 4), "seed": 0})  # load and cache the default board and edition first
    for name, game in engine.games().items():
        for players in range(game.max_players, game.min_players - 1, -1):
            _play_game(name, players, 10 ** 6, WARM_GAMES)  # data files, caches
            failures = _Failures()
            times = [_timed(lambda: _play_game(name, players, run * GAMES, GAMES, failures=failures))
                     for run in range(RUNS)]
            rows.append({"name": f"engine.{name}.random_bot_games_{players}p",
                         "value": round(GAMES / statistics.median(times), 1), "unit": "games/s", "runs": RUNS,
                         "games_per_run": GAMES, "games_ended": RUNS * GAMES - failures.count,
                         "errors": failures.count, "first_error": failures.first,
                         "target": 1000 if (name, players) == ("aztlan", 4) else None,
                         "note": _BASELINES.get((name, players))})
    kept = statistics.median(_timed(lambda: _play(4, run * GAMES, keep=True)) for run in range(RUNS))
    rows.append({"name": "engine.aztlan.random_bot_games_4p_kept", "value": round(GAMES / kept, 1), "unit": "games/s",
                 "runs": RUNS, "games_per_run": GAMES,
                 "note": "the same, keeping every finished game of a run in memory (the garbage collector's share)"})

    games = _play(4, 0, keep=True)
    logs = [(state.setup, list(state.log), state.order_log()) for state in games]
    orders = sum(len(log) for _, log, _ in logs)
    rows.append(_replay_row(games))

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
            GAME.new_game({"players": GAME.seating(seed, 4), "seed": seed})

    generated = statistics.median(_timed(lambda: generate_board(12345)) for _ in range(RUNS))
    rows.append({"name": "engine.aztlan.board_generation", "value": round(generated * 1000, 1), "unit": "ms",
                 "runs": RUNS, "note": "one seeded board from the generator (docs/boards.md)"})

    full = statistics.median(_timed(lambda: _play(4, 0)) for _ in range(RUNS))
    applied = statistics.median(_timed(apply_only) for _ in range(RUNS))
    parsed = statistics.median(_timed(parse_and_apply) for _ in range(RUNS))
    setup = statistics.median(_timed(setup_only) for _ in range(RUNS))
    rows += [
        {"name": "engine.aztlan.apply_order", "value": round(applied / orders * 1e6, 2), "unit": "us/order",
         "orders_per_game": round(orders / GAMES, 1)},
        {"name": "engine.aztlan.parse_and_apply_order", "value": round(parsed / orders * 1e6, 2),
         "unit": "us/order"},
        {"name": "engine.aztlan.new_game", "value": round(setup / GAMES * 1e6, 1), "unit": "us/game"},
        {"name": "engine.aztlan.time_share_rules", "value": round(applied / full, 3), "unit": "fraction",
         "note": "share of a random-bot game spent applying orders; the rest is bots and setup"},
        {"name": "engine.aztlan.time_share_bots", "value": round((full - applied - setup) / full, 3),
         "unit": "fraction",
         "note": "what is left: the bots and the garbage collector"},
    ]
    return rows
