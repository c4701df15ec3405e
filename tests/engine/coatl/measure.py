"""How much better the heuristic bot plays than the random one (docs/rules-coatl.md, "Bots").

    python -m tests.engine.coatl.measure [GAMES] [PLAYERS]

Plays GAMES seeded games (default 200) of PLAYERS players (default 2): one heuristic seat,
random in the others, the heuristic's seat moving round the table from game to game; prints
its wins (shared first places count as half) and the mean scores as JSON.
"""
from __future__ import annotations

import json
import sys

from engine.coatl import GAME
from engine.core import play_out


def measure(games: int = 200, players: int = 2) -> dict:
    wins, heuristic_points, random_points = 0.0, 0, 0
    for seed in range(1, games + 1):
        seats = GAME.seating(seed, players)
        record = {"game": "coatl", "seed": seed, "players": seats}
        mine = seed % players
        state = play_out(GAME.new_game(record), [GAME.make_bot("heuristic" if s == mine else "random", f"{seed}:{s}")
                                                 for s in range(players)])
        result = state.result()
        first = [seat for seat in seats if result.places[seat] == 1]
        if seats[mine] in first:
            wins += 1 / len(first)
        heuristic_points += result.scores[seats[mine]]
        random_points += sum(result.scores[seat] for seat in seats if seat != seats[mine])
    return {"games": games, "players": players, "heuristic_wins": wins,
            "heuristic_mean": round(heuristic_points / games, 1),
            "random_mean": round(random_points / games / (players - 1), 1)}


if __name__ == "__main__":
    print(json.dumps(measure(*(int(arg) for arg in sys.argv[1:3]))))
