"""`pbem play` writes a record and `pbem replay` reproduces it (docs/records.md)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.records import ReplayError, replay
from engine.core import SetupError


def pbem(*args: str) -> subprocess.CompletedProcess:
    """Run the installed console script, as a user would."""
    script = Path(sys.executable).with_name("pbem")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "pbem"]
    return subprocess.run([*command, *args], capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[dict, dict]:
    path = tmp_path_factory.mktemp("records") / "game.json"
    done = pbem("play", "--bots", "heuristic,random,random,heuristic", "--seed", "42", "--out", str(path))
    assert done.returncode == 0, done.stderr
    return json.loads(path.read_text()), json.loads(done.stdout)


def test_play_writes_a_complete_record(played):
    record, summary = played
    assert len(record["players"]) == 4
    assert {p["seat"] for p in record["players"]} == set(summary["final_scores"])
    assert record["seed"] == "42"
    assert all(": " in line for line in record["orders"])
    assert summary["complete"] is True
    assert len(summary["ages"]) == 5


def test_replay_prints_the_same_results_as_the_game(played, tmp_path):
    record, summary = played
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    done = pbem("replay", str(path))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["final_scores"] == summary["final_scores"]
    assert result["ranking"] == summary["ranking"]
    assert result["winner"] == result["ranking"][0] == summary["winner"]
    # each age's breakdown adds up: the domains, blessings and running totals agree
    totals = {seat: 0 for seat in result["final_scores"]}
    for age in result["ages"]:
        for seat, score in age["scores"].items():
            domains = sum(d["points"] for d in score["domains"])
            blessings = sum(b["points"] for b in score["blessings"])
            assert score["points"] == domains + blessings
            totals[seat] += score["points"]
            assert score["total"] == totals[seat]
    for seat, bonus in result["bonuses"].items():
        assert result["final_scores"][seat] == totals[seat] + bonus["points"]


def test_replay_stops_at_the_first_illegal_order(played, tmp_path):
    record, _ = played
    broken = dict(record, orders=record["orders"][:10] + ["ocelot: place 99"] + record["orders"][10:])
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken))
    done = pbem("replay", str(path))
    assert done.returncode == 1
    assert "order 11" in done.stderr and "place 99" in done.stderr
    out = json.loads(done.stdout)
    assert out["error"]["order"] == 11
    assert out["complete"] is False


def test_replay_refuses_a_broken_setup(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"players": ["ocelot", "eagle"], "seed": 1}))
    done = pbem("replay", str(path))
    assert done.returncode != 0
    assert "seat must be one of" in done.stderr


def test_a_partial_record_says_what_the_game_waits_for():
    state = replay({"players": ["ocelot", "serpent", "quetzal"], "seed": 3,
                    "orders": ["ocelot: card 9", "serpent: card 4"]})
    assert not state.is_over()
    assert [d.seat for d in state.decisions()] == ["quetzal"]


def test_replay_errors_name_the_order_and_keep_the_state():
    with pytest.raises(ReplayError) as caught:
        replay({"players": ["ocelot", "serpent", "quetzal"], "seed": 3,
                "orders": ["ocelot: card 9", "ocelot: card 8"]})
    assert caught.value.index == 1
    assert "already chosen" in str(caught.value)
    with pytest.raises(SetupError, match="deck"):
        replay({"players": ["ocelot", "serpent"], "seed": 3, "deck": ["tlatoani"]})


def test_replay_steps_yield_the_game_after_each_order():
    from engine.records import replay_steps
    record = {"players": ["ocelot", "serpent", "quetzal"], "seed": 3,
              "orders": ["ocelot: card 9", "serpent: card 4", "quetzal: card 5"]}
    phases = [(len(state.order_log()), state.phase) for state in replay_steps(record)]
    assert phases == [(0, "choosing"), (1, "choosing"), (2, "choosing"), (3, "development")]


def _random_game(seed: int):
    from engine import get_game
    from engine.core import play_out
    game = get_game("aztlan")
    state = game.new_game({"game": "aztlan", "players": game.seating(seed, 4), "seed": seed})
    return play_out(state, [game.make_bot("random", f"{seed}:{i}") for i in range(4)])


def test_a_replayed_game_shows_every_seat_the_same_events_as_the_game_played():
    """Events are kept compact and made into what readers see when first read: a replay, read
    only at the end, shows each seat and a spectator exactly what the played game shows."""
    played = _random_game(5)
    again = replay({"game": "aztlan", "players": list(played.seats), "seed": 5, "orders": played.order_log()})
    for seat in [*played.seats, None]:
        assert again.view(seat) == played.view(seat)


def test_a_clone_played_on_leaves_the_events_of_its_original_as_they_were():
    state = _random_game(6)
    record = {"game": "aztlan", "players": list(state.seats), "seed": 6, "orders": state.order_log()[:120]}
    original = replay(record)
    seen = original.events_for(None)  # read once before the copy, so the copy starts with them made
    copy = original.clone()
    seat, text = state.order_log()[120].split(": ", 1)
    copy.apply(seat, copy.parse(text)[0])
    assert original.events_for(None) == seen
    assert len(copy.events_for(None)) > len(seen)


def test_threads_reading_one_shared_game_at_once_all_see_its_events_once():
    """The service shares a cached state between threads: reading it never changes it."""
    from concurrent.futures import ThreadPoolExecutor
    played = _random_game(7)
    shared = replay({"game": "aztlan", "players": list(played.seats), "seed": 7, "orders": played.order_log()})
    with ThreadPoolExecutor(8) as pool:
        seen = list(pool.map(lambda _: shared.events_for(None), range(32)))
    assert all(events == played.events_for(None) for events in seen)
