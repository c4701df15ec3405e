"""Tiny helpers shared by the rules tests (test_rules_examples.py, test_rules_cases.py).

They set up a position the way players would reach it (choose cards, place pawns
turn by turn, settle conflicts) so each test reads like the rule case it checks:

    g = game(line("city", "desert", "jungle"))
    choose(g, ocelot=5, serpent=9, quetzal=6)
    develop(g, ocelot=[1, 1, 2, ...], serpent=[...], quetzal=[...])
    assert asked(g) == [("ocelot", "conflict", (1,))]

`position` is the one shortcut: it lets each seat place as many pawns as a layout
needs in one development phase (more than one age allows, when a scoring example
needs them), taking the difference from its reserve; the pawns are still placed by
orders, turn by turn.  This module holds no tests itself.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Iterable

from engine.aztlan import GAME
from engine.aztlan.data import packaged_edition
from engine.aztlan.orders import ChooseCard, Turn
from engine.aztlan.state import AztlanState
from tests.boards import tiny_board

THREE = ("ocelot", "serpent", "quetzal")
FOUR = ("ocelot", "serpent", "quetzal", "coyote")
TWO = ("ocelot", "serpent")
DECK = packaged_edition("default").deck  # the 30 prosperity cards, canonical order


# ---- boards ---------------------------------------------------------------------------

@lru_cache(maxsize=None)
def board(territories: str, borders: str = "", lakes: tuple[str, ...] = ()) -> dict[str, Any]:
    """A purpose-built board as a record's inline board (see tests/boards.py)."""
    return tiny_board(territories, borders, list(lakes)).to_dict()


def line(*kinds: str, lakes: Iterable[str] = ()) -> dict[str, Any]:
    """Territories 1..n of the given types in a row, each bordering the next."""
    spec = ", ".join(f"{i} {kind}" for i, kind in enumerate(kinds, 1))
    borders = " ".join(f"{i}-{i + 1}" for i in range(1, len(kinds)))
    return board(spec, borders, tuple(lakes))


# ---- games ----------------------------------------------------------------------------

def deck(*top: str) -> list[str]:
    """The default prosperity deck with `top` drawn first (in that order)."""
    rest = list(DECK)
    for card in top:
        rest.remove(card)
    return [*top, *rest]


def game(board_: dict[str, Any], players: Iterable[str] = THREE, *, seed: int | str = 1,
         options: dict[str, str] | None = None, top: Iterable[str] = (),
         edition: Any = None) -> AztlanState:
    """A new game; `players` in initial stack order (top first); `top`: the deck's first cards."""
    record: dict[str, Any] = {"players": list(players), "seed": seed, "board": board_,
                              "deck": deck(*top)}
    if options:
        record["options"] = options
    if edition is not None:
        record["edition"] = edition
    return GAME.new_game(record)


def do(state: AztlanState, seat: str, text: str) -> None:
    """One seat's orders given as text, one per line, applied one at a time."""
    for order in state.parse(text):
        state.apply(seat, order)


def choose(state: AztlanState, **cards: int) -> None:
    """Every seat chooses its power card for the age."""
    for seat, number in cards.items():
        state.apply(seat, ChooseCard(number))


def develop(state: AztlanState, **turns: list[int | str]) -> None:
    """Play development turns: each seat's turns in the order it takes them, until the phase
    ends or every listed turn is taken (the game then waits for the next turn).

    A turn is a territory id (just place there) or an order text ("place 1 move 1 to 2").
    """
    left = {seat: list(items) for seat, items in turns.items()}
    while state.phase == "development":
        (s,) = state.waiting()
        seat = state.seats[s]
        if not left.get(seat):
            assert not any(left.values()), f"{seat} has a turn but no placement left in the test: {left}"
            return
        item = left[seat].pop(0)
        if isinstance(item, int):
            state.apply(seat, Turn(item))
        else:
            do(state, seat, item)
    assert not any(left.values()), f"placements never made: {left}"


def position(state: AztlanState, layout: dict[int, dict[str, int]]) -> None:
    """Play a whole development phase that ends with this layout of pawns on the board.

    `layout` maps territory ids to {seat: pawns}; every seat needs at least one pawn.  A seat
    may place more (or fewer) pawns than the age allows: the difference is taken from (or put
    back in) its reserve, so pawns are conserved; every pawn is then placed by an order, turn by
    turn, so the phase ends through the rules.
    """
    assert state.phase == "development"
    turns: dict[str, list[int]] = {seat: [] for seat in state.seats}
    for ident, row in layout.items():
        for seat, count in row.items():
            turns[seat] += [ident] * count
    for seat, items in turns.items():
        people = state.control[state.seats.index(seat)]
        pool = state.reserve[people] + state.to_place[people]
        assert 1 <= len(items) <= pool, f"{seat} needs 1 to {pool} pawns in the layout"
        state.reserve[people] = pool - len(items)
        state.to_place[people] = len(items)
    develop(state, **turns)


def finish_scoring(state: AztlanState, **texts: str) -> None:
    """Every seat asked in the scoring phase sends its scoring turn ("score" by default)."""
    assert state.phase == "scoring", state.phase
    for s in list(state.waiting()):
        seat = state.seats[s]
        do(state, seat, texts.get(seat, "score"))


def quiet_age(state: AztlanState, homes: dict[str, int], **cards: int) -> None:
    """An age with no conflict: each seat plays `cards[seat]` and places every pawn at the
    home of the people it controls (`homes` by people: tribe, or faction with 2 players)."""
    choose(state, **cards)
    while state.phase == "development":
        (s,) = state.waiting()
        state.apply(state.seats[s], Turn(homes[state.peoples[state.control[s]]]))
    if state.phase == "scoring":
        finish_scoring(state)


# ---- looking at a game ----------------------------------------------------------------

def pawns(state: AztlanState, ident: int) -> dict[str, int]:
    """Pawns in a territory by people (tribe, or faction with 2 players)."""
    row = state.pawns[state.board.index_of[ident]]
    return {state.peoples[p]: count for p, count in enumerate(row) if count}


def asked(state: AztlanState) -> list[tuple[str, str, tuple[Any, ...]]]:
    """The decisions owed now, as (seat, kind, scope)."""
    return [(d.seat, d.kind, tuple(d.scope)) for d in state.decisions(options=False)]


def options_of(state: AztlanState, seat: str) -> dict[str, Any]:
    """The private options of `seat`'s current decision."""
    (decision,) = [d for d in state.decisions() if d.seat == seat]
    return decision.options


def hand(state: AztlanState, seat: str) -> list[str]:
    return sorted(state.hands[state.seats.index(seat)])


def give(state: AztlanState, seat: str, *cards: str) -> None:
    """Hand prosperity cards to a seat, taken out of the deck (cards are conserved)."""
    for card in cards:
        state.deck.remove(card)
        state.hands[state.seats.index(seat)].append(card)


def scored(state: AztlanState, seat: str, age: int = 1) -> dict[str, Any]:
    """The scoring breakdown of `seat` in `age`."""
    return state.age_scores[age - 1][seat]


def domains(state: AztlanState, seat: str, age: int = 1) -> list[tuple[int, int, int]]:
    """(size, matching territories, points) of each domain scored, sorted."""
    return sorted((d["size"], d["matching"], d["points"]) for d in scored(state, seat, age)["domains"])


def score_of(state: AztlanState, seat: str) -> int:
    return state.score[state.seats.index(seat)]


def events(state: AztlanState, kind: str, seat: str | None = None) -> list[dict[str, Any]]:
    """The events of one type in a seat's (or a spectator's) view."""
    return [e for e in state.view(seat)["events"] if e["type"] == kind]


def frozen(view: dict[str, Any]) -> str:
    """A view as canonical JSON, for comparing views."""
    return json.dumps(view, sort_keys=True)


def conservation(state: AztlanState) -> list[int]:
    """Per people: reserve + pawns to place + pawns on the board + removed pawns."""
    out = []
    for p in range(len(state.peoples)):
        on_board = sum(row[p] for row in state.pawns)
        out.append(state.reserve[p] + state.to_place[p] + on_board
                   + state.removed_before[p] + state.removed_now[p])
    return out
