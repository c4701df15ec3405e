"""The golden set: seeded bot games whose every view and result is pinned by a digest.

Each case is one whole game (2 to 4 players, a mix of bots, a seed, a set of options, a
board and an edition), played through the game interface of engine/core.py only: the
game's `seating` and `new_game`, then `decisions`, `apply`, `view`, `order_log`,
`milestones` and `result`.  The game is written out as a stream of canonical JSON lines
(the setup; after each applied order its text, the decisions owed with their options, the
new milestones and every seat's and the spectator's view; then the result), and the
case's digest is the SHA-256 of that stream.  golden_aztlan.json keeps one digest per
case, recorded from the code before the rules became a plug-in, so every later step can
be checked against it (docs/engine.md, "Golden set").

    python -m tests.engine.golden                  # check every case (exit 1 on a difference)
    python -m tests.engine.golden --write          # record them anew (only for an intended rules change)
    python -m tests.engine.golden --show CASE      # print one case's stream, to diff two versions

When the interface changes, only the adapters below (`play_order`, `view_json`,
`result_json`, ...) should need editing, so that the same stream comes out.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from engine import get_game
from engine.aztlan.bots import make_bot

HERE = Path(__file__).resolve().parent
GOLDEN_FILE = HERE / "golden_aztlan.json"
BOARD_FILE = HERE / "golden_board.json"  # a generated board, geometry left out
FORMAT = "pbem-golden/1"

PLAYERS = (2, 3, 4)
SEEDS = range(1, 31)
SUBSET_EVERY = 6  # the default test plays the seeds divisible by this: 5 of 30 in every group
BOT_KINDS = ("heuristic", "random", "minimal")
MIXES = ("random", "heuristic", "minimal", "mixed")  # mixed: the three kinds take turns round the table

# Every non-default reading of docs/rules.md's options.
OTHER_OPTIONS = {"eagle_placement": "placed-this-age", "final_tiebreak": "top",
                 "deck_exhausted": "no-card", "offerings_beyond_five": "cap",
                 "tie_window": "first-leader"}
# An edition with a seventh power card and a short prosperity deck, so decks run out.
SMALL_EDITION = {
    "format": "aztlan-edition/1", "name": "golden-small", "title": "Golden-set edition",
    "power_cards": [{"number": 3, "type": "city", "points": 0},
                    {"number": 4, "type": "wild", "points": 2},
                    {"number": 5, "type": "jungle", "points": 1},
                    {"number": 6, "type": "desert", "points": 4},
                    {"number": 7, "type": "fields", "points": 3},
                    {"number": 8, "type": "mountains", "points": 6},
                    {"number": 9, "type": "city", "points": 5}],
    "prosperity_deck": {"mixcoatl": 1, "tepeyollotl": 1, "xipe-totec": 1, "offering": 4,
                        "sacred-games": 1, "rafts": 2, "tlatoani": 2, "eagle-jaguar": 2},
}


def _settings() -> dict[str, dict[str, Any]]:
    """Setup fields per named setting: the defaults, each other option alone, all of them,
    another board, another edition, and everything else at once (with the 2-player
    faction chosen the other way round)."""
    board = json.loads(BOARD_FILE.read_text(encoding="utf-8"))
    settings: dict[str, dict[str, Any]] = {"default": {}}
    for name, value in OTHER_OPTIONS.items():
        settings[f"{name}={value}"] = {"options": {name: value}}
    settings["other-options"] = {"options": OTHER_OPTIONS}
    settings["board"] = {"board": board}
    settings["edition"] = {"edition": SMALL_EDITION}
    settings["everything"] = {"options": OTHER_OPTIONS, "board": board, "edition": SMALL_EDITION,
                              "faction": "ocelot-serpent"}
    return settings


SETTINGS = _settings()


@dataclass(frozen=True)
class Case:
    players: int
    mix: str
    setting: str
    seed: int

    @property
    def name(self) -> str:
        return f"{self.players}p-{self.mix}-{self.setting}-s{self.seed}"

    @property
    def group(self) -> str:
        return f"{self.players}p-{self.mix}-{self.setting}"

    def bots(self) -> list[str]:
        if self.mix != "mixed":
            return [self.mix] * self.players
        return [BOT_KINDS[(i + self.seed) % len(BOT_KINDS)] for i in range(self.players)]

    def record(self) -> dict[str, Any]:
        setting = dict(SETTINGS[self.setting])
        faction = setting.pop("faction", None)
        players: list[Any] = get_game("aztlan").seating(self.seed, self.players)
        if faction and self.players == 2:
            players = [{"seat": players[0], "faction": faction}, players[1]]
        return {"game": "aztlan", "players": players, "seed": self.seed, **setting}


def all_cases() -> list[Case]:
    return [Case(players, mix, setting, seed) for players in PLAYERS for mix in MIXES
            for setting in SETTINGS for seed in SEEDS]


def subset(cases: list[Case]) -> list[Case]:
    """A fixed sixth of the cases, spread over every group of players, bots and setting."""
    return [case for case in cases if case.seed % SUBSET_EVERY == 0]


# --- Adapters: the only places that know today's interface. ---------------------------

def new_game(record: dict[str, Any]) -> Any:
    return get_game(record["game"]).new_game(record)


def make_bots(case: Case) -> list[Any]:
    return [make_bot(kind, f"{case.seed}:{i}") for i, kind in enumerate(case.bots())]


# Options added to the decisions after the set was recorded.  Each follows from what the
# stream already holds (the board's adjacency, a seat's power card), so leaving them out
# keeps every digest and loses nothing.
ADDED_OPTIONS = ("move_to", "wild_types")


def _as_recorded(decision: dict[str, Any]) -> dict[str, Any]:
    options = {key: value for key, value in decision["options"].items() if key not in ADDED_OPTIONS}
    return {**decision, "options": options}


def decisions_json(state: Any) -> list[dict[str, Any]]:
    """Who owes what now, with each seat's private options."""
    return [_as_recorded(decision.private()) for decision in state.decisions()]


def play_order(state: Any, bots: list[Any], seat: str) -> None:
    """Let `seat`'s bot decide and apply its order."""
    s = state.seats.index(seat)
    state.apply(seat, bots[s].order(state, s))


def order_texts(state: Any) -> list[str]:
    """Every applied order as text, oldest first."""
    return state.order_log()


def readers(state: Any) -> list[str | None]:
    """Every seat, and None for a spectator."""
    return [*state.seats, None]


def view_json(state: Any, reader: str | None) -> dict[str, Any]:
    """What `reader` sees, as JSON data, its events under "events" oldest first."""
    view = state.view(reader)
    if "me" in view:
        view["me"] = {**view["me"], "decisions": [_as_recorded(d) for d in view["me"]["decisions"]]}
    return view


def milestones_json(state: Any) -> list[list[Any]]:
    return [[m.round, m.phase, m.scored] for m in state.milestones()]


def result_json(state: Any) -> dict[str, Any]:
    return state.result().to_json()  # the typed Result, as the dict the set was recorded with


# --- The stream and its digest. ---------------------------------------------------------

_ENCODER = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def canonical(item: Any) -> str:
    return _ENCODER.encode(item)


class _Changes:
    """Writes a series of JSON objects (one seat's views, say) one line each, but of a list
    that only grows from one object to the next ("events") only the items added ("+events");
    a list that changed otherwise is written whole.  Far less to encode than every view's
    events whole, and the stream still determines every view, provided the adapters hand
    out a new list each time (checked) whose old items are not changed in place later."""

    GROWING = ("events", "milestones")

    def __init__(self) -> None:
        self.lists: dict[tuple[str, Any, str], list[Any]] = {}

    def line(self, tag: str, who: Any, data: dict[str, Any]) -> str:
        data = dict(data)
        for key in self.GROWING:
            if key not in data:
                continue
            items = data.pop(key)
            old = self.lists.get((tag, who, key), [])
            # The same list object as last time could have changed in place unseen.
            assert items is not old, f"{tag} {key}: give a new list each time"
            if items[:len(old)] == old:
                data["+" + key] = items[len(old):]
            else:
                data[key] = items
            self.lists[tag, who, key] = items
        return canonical([tag, who, data])


def game_lines(case: Case) -> Iterator[str]:
    """The whole game of `case` as canonical JSON lines."""
    record = case.record()
    yield canonical(["setup", record])  # not the case's name: renaming a case changes no game
    state = new_game(record)
    bots = make_bots(case)
    changes = _Changes()

    def observe() -> Iterator[str]:
        yield changes.line("game", None, {"decisions": decisions_json(state),
                                          "milestones": milestones_json(state)})
        for reader in readers(state):
            yield changes.line("view", reader, view_json(state, reader))

    steps = [list(observe())]
    while not state.is_over():
        seat = state.decisions(options=False)[0].seat  # as play_out: the first seat asked
        play_order(state, bots, seat)
        steps.append(list(observe()))
    # Each order's text goes before what followed it; the log is read once, at the end,
    # as reading it rebuilds it whole.
    texts = order_texts(state)
    assert len(texts) == len(steps) - 1, (len(texts), len(steps))
    yield from steps[0]
    for text, lines in zip(texts, steps[1:]):
        yield canonical(["order", text])
        yield from lines
    yield canonical(["result", result_json(state)])


def digest(case: Case) -> str:
    hasher = hashlib.sha256()
    for line in game_lines(case):
        hasher.update(line.encode("utf-8"))
        hasher.update(b"\n")
    return hasher.hexdigest()


def digests(cases: list[Case], jobs: int = 1) -> dict[str, str]:
    if jobs <= 1:
        return {case.name: digest(case) for case in cases}
    with ProcessPoolExecutor(jobs) as pool:
        return dict(zip((case.name for case in cases), pool.map(digest, cases, chunksize=8)))


def load() -> dict[str, str]:
    data = json.loads(GOLDEN_FILE.read_text(encoding="utf-8"))
    assert data["format"] == FORMAT, data["format"]
    return data["cases"]


def write(found: dict[str, str]) -> None:
    # One case a line, so a diff shows which games changed.
    lines = [f'{{"format": "{FORMAT}", "game": "aztlan", "cases": {{']
    lines += [f"{canonical(name)}: {canonical(value)}," for name, value in sorted(found.items())]
    lines[-1] = lines[-1].rstrip(",")
    lines.append("}}")
    GOLDEN_FILE.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.engine.golden", description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="record every case's digest anew")
    parser.add_argument("--subset", action="store_true", help="check only the default test's subset")
    parser.add_argument("--show", metavar="CASE", help="print the stream of one case")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: all cores)")
    args = parser.parse_args(argv)
    cases = all_cases()
    if args.show:
        chosen = [case for case in cases if case.name == args.show]
        if not chosen:
            parser.error(f"no case {args.show!r}; names look like {cases[0].name}")
        for line in game_lines(chosen[0]):
            print(line)
        return 0
    if args.subset:
        cases = subset(cases)
    found = digests(cases, args.jobs)
    if args.write:
        write(found)
        print(f"wrote {len(found)} digests to {GOLDEN_FILE.name}")
        return 0
    expected = load()
    wrong = sorted(name for name in found if expected.get(name) != found[name])
    missing = sorted(set(expected) - set(found)) if not args.subset else []
    for name in wrong:
        print(f"differs: {name}")
    for name in missing:
        print(f"no longer played: {name}")
    print(f"{len(found) - len(wrong)} of {len(found)} cases match")
    return 1 if wrong or missing else 0


if __name__ == "__main__":
    sys.exit(main())
