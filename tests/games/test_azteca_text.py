"""Azteca's words (pbem/games/azteca: sentences.py, text.py, examples.py): every event the
engine can emit has a sentence of its own, a private event reaches its reader only and is never
news, the example orders play whole games, and BOARD, HAND and the turn mail's choices come from
the reader's view: its own secrets, never another seat's."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.azteca.game import GAME
from engine.core import play_out
from pbem.games import presentation
from pbem.games.azteca import sentences, text
from pbem.games.azteca.sentences import Words, chart_text

SHOWN = presentation("azteca")
ENGINE = Path(__file__).resolve().parents[2] / "engine" / "azteca"


def new_game(players: int, seed: int = 1):
    seats = GAME.seating(seed, players)
    return GAME.new_game({"game": "azteca", "seed": seed,
                          "players": [{"seat": s, "name": f"Player {s}"} for s in seats]})


def names(state) -> dict[str, str]:
    return {seat: f"Player {seat}" for seat in state.seats}


def emitted_types() -> set[str]:
    """Every event type the engine's source emits: `_event(AUDIENCE, "type", ...)`, a lake
    battle's log entries as they are, a Flower War battle's prefixed "battle-" (war.py)."""
    found = set()
    for path in ENGINE.glob("*.py"):
        source = path.read_text("utf-8")
        found |= set(re.findall(r'_event\(\s*\w+,\s*"([a-z-]+)"', source))
        logged = set(re.findall(r'log\.append\(\{"type": "([a-z-]+)"', source))
        found |= {f"battle-{kind}" for kind in logged} if path.name == "battle.py" else logged
    return found


def test_every_event_type_the_engine_emits_has_a_sentence_of_its_own():
    emitted = emitted_types()
    assert len(emitted) > 60 and {"setup", "battle-round", "lake-round", "game-over"} <= emitted
    assert emitted <= sentences.EVENT_TYPES, sorted(emitted - sentences.EVENT_TYPES)


@pytest.mark.parametrize("players, bot", [(3, "random"), (4, "heuristic")])
def test_every_event_of_whole_games_reads_as_a_sentence_and_private_ones_reach_their_reader_only(players, bot):
    state = play_out(new_game(players, seed=players), [GAME.make_bot(bot, f"w:{i}") for i in range(players)])
    words = Words(names(state), state.geo, state.edition)
    public = state.view(None)["events"]
    for seat in state.seats:
        events = state.view(seat)["events"]
        private = [e for e in events if e["type"].startswith("my-") or e["type"] in sentences.PRIVATE]
        assert private and all(e not in public for e in private)
        assert not any(SHOWN.is_news(e, other) for e in private for other in state.seats)
        for event in events:
            line = sentences.sentence(event, words)
            assert line.endswith(".") and line != event["type"].replace("-", " ").capitalize() + "."
            assert "None" not in line and "{" not in line, line
    assert sentences.sentence(public[-1], words).startswith(("Quetzalcoatl has reached", "Tezcatlipoca has reached"))


def test_a_seats_own_doings_are_not_news_to_it_but_their_outcomes_are():
    placed = {"type": "marker-placed", "seat": "toltecs", "territory": "chalco"}
    won = {"type": "lot-won", "seat": "toltecs", "lot": 2, "tributes": 3}
    assert not SHOWN.is_news(placed, "toltecs") and SHOWN.is_news(placed, "tepanecs")
    assert SHOWN.is_news(won, "toltecs")


@pytest.mark.parametrize("players", [3, 4])
def test_the_example_orders_play_whole_games_and_each_decision_lists_its_choices(players):
    state = new_game(players, seed=2)
    asked = set()
    for _ in range(5000):
        if state.is_over():
            break
        seat = state.seats[state.waiting()[0]]
        view = state.view(seat)
        [decision] = view["me"]["decisions"]
        asked.add(decision["kind"])
        choices = text.choices_text(view)
        assert choices.startswith("Your choices now:\n  ") and "None" not in choices, choices
        state.submit(seat, state.parse(SHOWN.first_order(decision)))
    assert state.is_over()
    assert {"army", "place", "purchase", "look", "bid", "send", "plan", "march", "urn", "tezcatlipoca"} <= asked


def test_hand_shows_the_readers_secrets_and_board_none_of_them():
    """HAND: the reader's chart, cards and Sacrifice points; BOARD and another seat's HAND: not
    the reader's chart (charts made to differ), nor the face-down markers' values."""
    state = new_game(3, seed=5)
    bots = [GAME.make_bot("random", f"h:{i}") for i in range(3)]
    while not state.markers:  # setup, until the first population marker lies face down
        s = state.waiting()[0]
        state.apply(state.seats[s], bots[s].order(state.clone(), s))
    reader, other = state.seats[0], state.seats[1]
    state.people[0].chart = {"A": [4, 0], "B": [1, 3], "C": [0, 0], "R": [5, 0]}
    state.people[0].hand = ["tlaloc", "raid"]
    state.people[0].sacrifice = 17
    mine, theirs = state.view(reader), state.view(other)
    hand = SHOWN.hand_text(mine)
    assert "Your organisation chart: A 4w, B 1w 3j, C empty, R 5w." in hand
    assert "Tlaloc ('tlaloc', phase 2): " in hand and "Your Sacrifice points: 17 held" in hand
    for told in (SHOWN.board_text(state, mine, names(state)), SHOWN.board_text(state, theirs, names(state)),
                 SHOWN.hand_text(theirs), SHOWN.turn_text(state, theirs, names(state))):
        assert chart_text(mine["me"]["chart"]) not in told and "17 held" not in told
    board = SHOWN.board_text(state, theirs, names(state))
    assert "Population markers, face down, on: " in board
    for territory, value in state.markers.items():
        assert f"{state.geo.region(territory).name} {value}" not in board


def test_a_view_of_an_edition_given_inline_names_its_cards_by_key():
    """The packaged edition's names and effects are not an inline edition's: its cards are named
    by key (the view names the edition, not its cards)."""
    view = {"edition": "house rules", "players": 3, "me": {"hand": ["tlaloc"], "chart": {}}}
    hand = text.hand_text(view)
    assert "Your Azteca cards:\n  tlaloc\n" in hand and "Tribute phase" not in hand
    assert "Tlaloc ('tlaloc', phase 2): Tribute phase" in text.hand_text({**view, "edition": "default"})
