"""Tiny helpers for Cóatl's rule cases: a position set up directly, cóatls from letters."""
from __future__ import annotations

from typing import Any, Iterable

from engine.coatl import GAME
from engine.coatl.assembly import Coatl
from engine.coatl.orders import Keep
from engine.coatl.state import CoatlState

SEATS = ("macaw", "quetzal", "heron", "hummingbird")


def new_game(players: int = 2, seed: int | str = 1, options: dict[str, Any] | None = None) -> CoatlState:
    record: dict[str, Any] = {"game": "coatl", "seed": seed, "players": list(SEATS[:players])}
    if options:
        record["options"] = options
    return GAME.new_game(record)


def position(players: int = 2, *, options: dict[str, Any] | None = None, turn: int = 0,
             boards: dict[int, str] | None = None, hands: dict[int, Iterable[int]] | None = None,
             temples: dict[int, Iterable[int]] | None = None, coatls: dict[int, list[Coatl]] | None = None,
             row: Iterable[int] | None = None, commons: tuple[list[int], list[int]] | None = None,
             seed: int | str = 1) -> CoatlState:
    """A game past setup (everyone kept nothing), then the given things put in place.

    Boards are written as pieces separated by spaces, a piece as its colour letter and kind
    letter: "Rh Yb Bt" is a red head, a yellow body and a blue tail."""
    state = new_game(players, seed, options)
    for seat in state.seats:
        state.apply(seat, Keep(()))
    for s, text in (boards or {}).items():
        state.players[s].board = pieces(text)
    for s, cards in (hands or {}).items():
        state.players[s].hand = list(cards)
    for s, cards in (temples or {}).items():
        state.players[s].temples = list(cards)
    for s, made in (coatls or {}).items():
        state.players[s].coatls = made
    if row is not None:
        state.row = list(row)
    if commons is not None:
        state.piles = [list(commons[0]), list(commons[1])]
    state.turn = turn
    return state


KIND = {"h": "head", "b": "body", "t": "tail"}


def pieces(text: str) -> list[tuple[str, str]]:
    return [(word[0].upper(), KIND[word[1].lower()]) for word in text.split()]


def coatl(letters: str, *, head: bool = True, tail: bool = True, prophecies: Iterable[int] = (),
          complete: bool = False, points: int = 0, temple: int | None = None) -> Coatl:
    """A cóatl from head to tail: the first letter is its head and the last its tail unless
    told otherwise."""
    made = [(letter, "body") for letter in letters]
    if head:
        made[0] = (letters[0], "head")
    if tail:
        made[-1] = (letters[-1], "tail")
    return Coatl(made, list(prophecies), temple, complete, points)


def play(state: CoatlState, text: str) -> None:
    """The seat whose turn it is sends `text` (one order per action)."""
    for order in state.parse(text):
        state.apply(state.seats[state.waiting()[0]], order)


def events(state: CoatlState, kind: str, reader: int | None = None) -> list[dict[str, Any]]:
    return [event for event in state.events_for(reader) if event["type"] == kind]
