"""`pbem league simulate` plays a whole league of bots through the services and a real worker
on the embedded defaults (a temporary SQLite database, the file transport), for every
registered game, and prints standings a reader can check."""
from __future__ import annotations

import json

import pytest

import engine
from test_cli_games import pbem


@pytest.mark.parametrize("name", engine.game_names())
def test_a_simulated_league_ends_with_every_player_ranked_and_rated(name):
    size = min(4, engine.get_game(name).max_players)
    done = pbem("league", "simulate", "--game", name, "--players", str(2 * size), "--rounds", "2", "--seed", "3",
                "--timeout", "100", env={"REDIS_URL": "redis://127.0.0.1:1/0"})  # ignored: always embedded
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert report["finished"] and report["game"] == name and report["players"] == 2 * size
    standings = report["standings"]
    assert len(standings) == 2 * size and all(row["games"] == 2 for row in standings)
    assert [row["place"] for row in standings] == sorted(row["place"] for row in standings)
    assert all(row["mu"] is not None and row["ordinal"] == pytest.approx(row["mu"] - 3 * row["sigma"])
               for row in standings)
    assert isinstance(report["repeated_pairs"], int) and report["repeated_pairs"] >= 0


def test_an_unknown_game_is_a_clear_error():
    done = pbem("league", "simulate", "--game", "nosuchgame", "--players", "4", "--rounds", "1")
    assert done.returncode != 0 and "nosuchgame" in done.stderr and "Traceback" not in done.stderr
