"""`pbem play --game` and `pbem replay` work for every registered game, through the registry."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import engine


def pbem(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Run the installed console script, as a user would."""
    script = Path(sys.executable).with_name("pbem")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "pbem"]
    return subprocess.run([*command, *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


@pytest.mark.parametrize("name", engine.game_names())
def test_play_then_replay_gives_the_same_results(name, tmp_path):
    game = engine.get_game(name)
    path = tmp_path / "game.json"
    played = pbem("play", "--game", name, "--seed", "9", "--out", str(path))
    assert played.returncode == 0, played.stderr
    record, summary = json.loads(path.read_text()), json.loads(played.stdout)
    assert record["game"] == summary["game"] == name and summary["complete"] is True
    replayed = pbem("replay", str(path))
    assert replayed.returncode == 0, replayed.stderr
    again = json.loads(replayed.stdout)
    assert again == {key: value for key, value in summary.items() if key != "record"}
    assert len(again[f"{game.round_name}s"]) >= 1
    assert sorted(again["ranking"]) == sorted(p["seat"] for p in record["players"])


def test_the_default_game_comes_from_the_configuration(tmp_path):
    done = pbem("play", "--seed", "1", env={"PBEM_DEFAULT_GAME": "duel"})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["game"] == "duel"
    done = pbem("play", "--seed", "1", "--bots", "random,random", env={"PBEM_DEFAULT_GAME": ""})
    assert json.loads(done.stdout)["game"] == "aztlan"


def test_options_are_read_as_the_game_takes_them(tmp_path):
    path = tmp_path / "duel.json"
    done = pbem("play", "--game", "duel", "--bots", "random,minimal", "--seed", "4",
                "--option", "rounds=2", "--option", "tie_break=none", "--out", str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(path.read_text())["options"] == {"rounds": 2, "tie_break": "none"}
    assert len(json.loads(done.stdout)["rounds"]) == 2
    done = pbem("play", "--game", "duel", "--bots", "random,minimal", "--option", "rounds=12")
    assert done.returncode != 0 and "rounds must be a whole number from 1 to 9" in done.stderr


def test_unknown_games_and_bots_are_refused_clearly():
    done = pbem("play", "--game", "chess")
    known = ", ".join(engine.game_names())
    assert done.returncode != 0 and f"unknown game 'chess'; known: {known}" in done.stderr
    done = pbem("play", "--game", "duel", "--bots", "random,deep-blue")
    assert done.returncode != 0 and "unknown bot 'deep-blue'" in done.stderr
    done = pbem("play", "--game", "duel", "--bots", "random")
    assert done.returncode != 0 and "2 to 4 players" in done.stderr
