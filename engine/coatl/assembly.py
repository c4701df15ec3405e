"""Cóatls, their points, and the Assemble action's steps (the rulebook's Cóatl Assembly Rules).

`Rules` is the components plus the options of one game; `Workshop` carries out an Assemble
action's steps on copies of one seat's things, so an illegal step changes nothing.  Bots use
the same Workshop on what their seat may know, so they find exactly the legal orders.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from engine.coatl.components import Pieces, Prophecy, Temple, packaged
from engine.coatl.orders import Add, Complete, Fulfil, New, Step, piece_text
from engine.core import IllegalOrderError

Piece = tuple[str, str]  # (colour letter, kind)


class Rules:
    """One game's components and options."""

    def __init__(self, options: dict[str, Any], components: tuple[Pieces, dict[int, Prophecy], dict[int, Temple]] | None = None):
        self.pieces, self.prophecies, self.temples = components or packaged()
        self.options = options
        self.limits = self.pieces.limits
        self.open_ends = options["open_ends"] == "any-end"
        self.temple_if_able = options["temple"] == "if-able"
        self.requirements = {card.id: card.requirement_for(options) for card in self.prophecies.values()}
        # Bots and the rules ask about the same cóatls again and again; plain keys hash faster
        # than the requirements themselves.
        self._times: dict[tuple[int, str, bool, bool], int] = {}
        self._met: dict[tuple[int, str], int] = {}

    def times(self, card: int, letters: str, head: bool = True, tail: bool = True) -> int:
        key = (card, letters, head, tail)
        found = self._times.get(key)
        if found is None:
            found = self._times[key] = self.requirements[card].times(letters, head, tail, self.open_ends)
        return found

    def temple_met(self, temple: int, letters: str) -> int:
        """How many of a temple card's conditions a finished cóatl meets."""
        key = (temple, letters)
        found = self._met.get(key)
        if found is None:
            found = self._met[key] = self.temples[temple].met(letters)
        return found

    def satisfies(self, card: int, letters: str, head: bool, tail: bool) -> bool:
        """Whether a cóatl meets a prophecy's minimum requirement (to fulfil it)."""
        return self.times(card, letters, head, tail) >= self.prophecies[card].minimum

    def prophecy_points(self, card: int, letters: str) -> int:
        return self.prophecies[card].points(self.times(card, letters))

    def temple_points(self, temple: int, letters: str) -> int:
        return self.temples[temple].points_for(self.temple_met(temple, letters))

    def coatl_points(self, letters: str, prophecies: Sequence[int], temple: int | None) -> int:
        return (sum(self.prophecy_points(card, letters) for card in prophecies)
                + (self.temple_points(temple, letters) if temple is not None else 0))


@dataclass
class Coatl:
    pieces: list[Piece] = field(default_factory=list)  # head to tail
    prophecies: list[int] = field(default_factory=list)
    temple: int | None = None
    complete: bool = False
    points: int = 0  # once complete (announced)

    def copy(self) -> "Coatl":
        """An independent copy (pieces are immutable pairs): what deepcopy gives, many times faster."""
        return Coatl(list(self.pieces), list(self.prophecies), self.temple, self.complete, self.points)

    @property
    def letters(self) -> str:
        return "".join([piece[0] for piece in self.pieces])  # a list joins faster than a generator

    @property
    def head(self) -> bool:
        return bool(self.pieces) and self.pieces[0][1] == "head"

    @property
    def tail(self) -> bool:
        return bool(self.pieces) and self.pieces[-1][1] == "tail"

    @property
    def closed(self) -> bool:
        return self.head and self.tail

    def to_json(self) -> dict[str, Any]:
        return {"pieces": [piece_text(*piece) for piece in self.pieces], "letters": self.letters,
                "prophecies": list(self.prophecies), "temple": self.temple, "complete": self.complete,
                "points": self.points if self.complete else None}


def coatl_from_json(data: dict[str, Any]) -> Coatl:
    """A cóatl as a view shows it (for bots, which read views)."""
    from engine.coatl.requirements import COLOURS
    pieces = [(COLOURS[text.split()[0]], text.split()[1]) for text in data["pieces"]]
    return Coatl(pieces, list(data["prophecies"]), data["temple"], data["complete"], data["points"] or 0)


@dataclass
class Completion:
    number: int  # the cóatl's number, from 1
    points: int
    temple: int | None
    common: bool  # the temple came from a common pile


class Workshop:
    """One seat's Assemble action, carried out on copies of its things."""

    def __init__(self, rules: Rules, board: Sequence[Piece], hand: Sequence[int], temples: Sequence[int],
                 commons: Sequence[int], coatls: Sequence[Coatl]):
        self.rules = rules
        self.board = list(board)
        self.hand = list(hand)
        self.temples = list(temples)  # the seat's own temple cards
        self.commons = list(commons)  # the face-up common temples as the action began
        self.coatls = [coatl.copy() for coatl in coatls]
        self.completions: list[Completion] = []
        self.awaiting: int | None = None  # a cóatl with head and tail, not yet completed

    def copy(self) -> "Workshop":
        """An independent copy, to try steps on."""
        twin = Workshop(self.rules, self.board, self.hand, self.temples, self.commons, self.coatls)
        twin.completions = list(self.completions)
        twin.awaiting = self.awaiting
        return twin

    def run(self, steps: Sequence[Step]) -> "Workshop":
        for step in steps:
            self.step(step)
        self.finish()
        return self

    def finish(self) -> None:
        if self.awaiting is not None:
            raise IllegalOrderError(f"cóatl {self.awaiting} has its head and tail: finish it with "
                                    f"'complete {self.awaiting}' (and 'with temple N' if one applies)")

    def step(self, step: Step) -> None:
        """Carry out one step; a step that raises changes nothing (bots try steps in place)."""
        if self.awaiting is not None and not (isinstance(step, (Fulfil, Complete)) and step.coatl == self.awaiting):
            raise IllegalOrderError(f"cóatl {self.awaiting} has its head and tail: only 'fulfil ... on "
                                    f"{self.awaiting}' and 'complete {self.awaiting}' may come before it is "
                                    f"completed")
        if isinstance(step, New):
            self._new(step)
        elif isinstance(step, Add):
            self._add(step)
        elif isinstance(step, Fulfil):
            self._fulfil(step)
        elif isinstance(step, Complete):
            self._complete(step)
        else:
            raise IllegalOrderError(f"not an assembly step: {step!r}")

    # ---- the steps ------------------------------------------------------------------------

    def unfinished(self) -> list[int]:
        return [i + 1 for i, coatl in enumerate(self.coatls) if not coatl.complete]

    def _piece(self, colour: str, kind: str) -> Piece:
        piece = (colour, kind)
        if piece not in self.board:
            held = ", ".join(piece_text(*p) for p in sorted(self.board)) or "nothing"
            raise IllegalOrderError(f"there is no {piece_text(*piece)} on your player board (it holds {held})")
        return piece

    def _new(self, step: New) -> None:
        limits = self.rules.limits
        if len(self.unfinished()) >= limits["unfinished"]:
            raise IllegalOrderError(f"you already have {limits['unfinished']} unfinished cóatls; add to one of them")
        if len(self.coatls) >= limits["coatls"]:
            raise IllegalOrderError(f"you have begun all {limits['coatls']} cóatls a player may make")
        piece = self._piece(step.colour, step.kind)
        self.board.remove(piece)
        self.coatls.append(Coatl([piece]))

    def coatl(self, number: int, unfinished: bool = True) -> Coatl:
        if not 1 <= number <= len(self.coatls):
            have = f"your cóatls are 1 to {len(self.coatls)}" if self.coatls else "you have no cóatl yet"
            raise IllegalOrderError(f"there is no cóatl {number} ({have}; 'new <colour> <kind>' begins one)")
        coatl = self.coatls[number - 1]
        if unfinished and coatl.complete:
            raise IllegalOrderError(f"cóatl {number} is complete; nothing more can be done with it")
        return coatl

    def _add(self, step: Add) -> None:
        coatl = self.coatl(step.coatl)
        piece = self._piece(step.colour, step.kind)
        front = step.kind == "head" or (step.kind == "body" and step.front)
        if step.kind == "head" and coatl.head:
            raise IllegalOrderError(f"cóatl {step.coatl} already has a head")
        if step.kind == "tail" and coatl.tail:
            raise IllegalOrderError(f"cóatl {step.coatl} already has a tail")
        if step.kind == "body" and (coatl.head if front else coatl.tail):
            end, other = ("front", "back") if front else ("back", "front")
            raise IllegalOrderError(f"cóatl {step.coatl} ends in a {'head' if front else 'tail'} at its {end}: "
                                    f"add the body at the {other}")
        closing = (step.kind == "head" and coatl.tail) or (step.kind == "tail" and coatl.head)
        if closing and not any(kind == "body" for _, kind in coatl.pieces):
            raise IllegalOrderError(f"cóatl {step.coatl} needs at least one body segment between its head and tail")
        self.board.remove(piece)
        coatl.pieces.insert(0, piece) if front else coatl.pieces.append(piece)
        if coatl.closed:
            self.awaiting = step.coatl

    def _fulfil(self, step: Fulfil) -> None:
        coatl = self.coatl(step.coatl)
        rules = self.rules
        hand, placed = list(self.hand), list(coatl.prophecies)  # changed only once every card is checked
        for card in step.cards:
            if card not in hand:
                held = ", ".join(map(str, sorted(hand))) or "none"
                raise IllegalOrderError(f"you hold no prophecy {card} (your hand: {held})")
            if card in placed:
                raise IllegalOrderError(f"cóatl {step.coatl} already fulfils prophecy {card}; "
                                        f"a cóatl cannot fulfil identical prophecies")
            if len(placed) >= rules.limits["prophecies_per_coatl"]:
                raise IllegalOrderError(f"cóatl {step.coatl} already fulfils "
                                        f"{rules.limits['prophecies_per_coatl']} prophecies, the most a cóatl may")
            if not rules.satisfies(card, coatl.letters, coatl.head, coatl.tail):
                title = rules.prophecies[card].title
                raise IllegalOrderError(f"cóatl {step.coatl} ({coatl.letters or 'empty'}) does not meet prophecy "
                                        f"{card} ({title}) yet")
            hand.remove(card)
            placed.append(card)
        self.hand, coatl.prophecies = hand, placed

    def able_temples(self, letters: str) -> list[int]:
        """The temple cards this seat could fulfil with a finished cóatl of these letters."""
        return sorted({t for t in (*self.temples, *self.commons) if self.rules.temple_met(t, letters)})

    def _complete(self, step: Complete) -> None:
        coatl = self.coatl(step.coatl)
        if not coatl.closed:
            missing = " and ".join(kind for kind, have in (("a head", coatl.head), ("a tail", coatl.tail)) if not have)
            raise IllegalOrderError(f"cóatl {step.coatl} cannot be completed: it still needs {missing}")
        if not coatl.prophecies:
            raise IllegalOrderError(f"cóatl {step.coatl} must fulfil at least one prophecy: "
                                    f"'fulfil N on {step.coatl}' before 'complete {step.coatl}'")
        able = self.able_temples(coatl.letters)
        common = False
        if step.temple is None:
            if able and self.rules.temple_if_able:
                raise IllegalOrderError(f"cóatl {step.coatl} can fulfil temple {', '.join(map(str, able))}: "
                                        f"'complete {step.coatl} with temple N'")
        elif step.temple not in (*self.temples, *self.commons):
            offered = ", ".join(map(str, sorted((*self.temples, *self.commons)))) or "none"
            raise IllegalOrderError(f"temple {step.temple} is neither yours nor face up (you may use: {offered})")
        elif step.temple not in able:
            raise IllegalOrderError(f"cóatl {step.coatl} ({coatl.letters}) meets no requirement of temple "
                                    f"{step.temple} ({self.rules.temples[step.temple].title})")
        elif step.temple in self.temples:
            self.temples.remove(step.temple)
        else:
            self.commons.remove(step.temple)
            common = True
        coatl.temple = step.temple
        coatl.complete = True
        coatl.points = self.rules.coatl_points(coatl.letters, coatl.prophecies, coatl.temple)
        self.awaiting = None
        self.completions.append(Completion(step.coatl, coatl.points, step.temple, common))
