"""Cóatl's orders: small value types and the one text grammar every channel uses.

A turn is one action, written on one line or spread over a mail (docs/orders.md, "Cóatl"):
    keep 12 31 | keep none                         (setup, secret)
    take body 3 | take head 1 | take tail 2
    choose 12 31 deck 1 | choose deck 2
    new yellow head; add red body to 1; fulfil 12 on 1; complete 1 with temple 7
    pass
    sacrifice pick body | sacrifice future | sacrifice commit 7
    discard 3 12; choose 4 deck 1                  (after See the Future)
Clauses are separated by ';' or new lines.  Consecutive assembly clauses (new, add, fulfil,
complete) make one Assemble; a 'discard' clause joins the 'choose' after it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from engine.coatl.components import KINDS
from engine.coatl.requirements import COLOURS, LETTERS
from engine.core import ParseError

MAX_CLAUSES = 100
_COLOUR_WORDS = {**{colour: letter for colour, letter in COLOURS.items()},
                 **{letter.lower(): letter for letter in LETTERS}}


@dataclass(frozen=True, slots=True)
class Keep:
    """Setup: the dealt prophecies kept (at most three), sorted."""
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Take:
    """Take the pieces of one supply space: a head, a tail, or a body space's segments."""
    kind: str
    space: int  # from 1


@dataclass(frozen=True, slots=True)
class Choose:
    """Take face-up prophecies (by card number) and/or cards from the top of the deck.
    `discard`: only after See the Future, cards given up from the hand first."""
    cards: tuple[int, ...] = ()
    deck: int = 0
    discard: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class New:
    colour: str  # a letter
    kind: str


@dataclass(frozen=True, slots=True)
class Add:
    colour: str
    kind: str
    coatl: int  # the seat's cóatl number, from 1
    front: bool = False  # a body at the head end rather than the tail end


@dataclass(frozen=True, slots=True)
class Fulfil:
    cards: tuple[int, ...]
    coatl: int


@dataclass(frozen=True, slots=True)
class Complete:
    coatl: int
    temple: int | None = None


Step = Union[New, Add, Fulfil, Complete]


@dataclass(frozen=True, slots=True)
class Assemble:
    """The Assemble action: its steps in order; no steps at all is `pass`."""
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True, slots=True)
class Sacrifice:
    token: str  # pick, future, commit
    kind: str | None = None  # Perfect Pick: head, tail or body
    temple: int | None = None  # Priest Commitment: the face-up temple taken


Order = Union[Keep, Take, Choose, Assemble, Sacrifice]
VERBS = ("keep", "take", "choose", "new", "add", "fulfil", "complete", "pass", "sacrifice", "discard")
STEP_VERBS = ("new", "add", "fulfil", "fulfill", "complete")


def _numbers(cards: tuple[int, ...]) -> str:
    return " ".join(map(str, cards))


def piece_text(colour: str, kind: str) -> str:
    return f"{LETTERS[colour]} {kind}"


def step_text(step: Step) -> str:
    if isinstance(step, New):
        return f"new {piece_text(step.colour, step.kind)}"
    if isinstance(step, Add):
        return f"add {piece_text(step.colour, step.kind)} to {step.coatl}" + (" front" if step.front else "")
    if isinstance(step, Fulfil):
        return f"fulfil {_numbers(step.cards)} on {step.coatl}"
    if isinstance(step, Complete):
        return f"complete {step.coatl}" + (f" with temple {step.temple}" if step.temple is not None else "")
    raise TypeError(f"not a Cóatl assembly step: {step!r}")


def to_text(order: Order) -> str:
    """The canonical text of an order, as game records store it (one line)."""
    if isinstance(order, Keep):
        return f"keep {_numbers(order.cards)}" if order.cards else "keep none"
    if isinstance(order, Take):
        return f"take {order.kind} {order.space}"
    if isinstance(order, Choose):
        parts = ["choose"] + [str(card) for card in order.cards] + ([f"deck {order.deck}"] if order.deck else [])
        text = " ".join(parts) if len(parts) > 1 else "choose none"
        return f"discard {_numbers(order.discard)}; {text}" if order.discard else text
    if isinstance(order, Assemble):
        return "; ".join(step_text(step) for step in order.steps) if order.steps else "pass"
    if isinstance(order, Sacrifice):
        if order.token == "pick":
            return f"sacrifice pick {order.kind}"
        if order.token == "commit":
            return f"sacrifice commit {order.temple}"
        return "sacrifice future"
    raise TypeError(f"not a Cóatl order: {order!r}")


class _Clause:
    """A cursor over one clause's words, with errors that quote the clause."""

    def __init__(self, text: str):
        self.text = text
        self.words = [word for word in re.split(r"[\s,]+", text.lower()) if word]
        self.at = 0

    def error(self, expected: str) -> ParseError:
        found = f"'{self.words[self.at]}'" if self.at < len(self.words) else "the end of the clause"
        return ParseError(f"{self.text!r}: expected {expected}, found {found}", line=self.text, expected=expected)

    def peek(self) -> str | None:
        return self.words[self.at] if self.at < len(self.words) else None

    def take(self, *words: str) -> bool:
        if self.peek() in words:
            self.at += 1
            return True
        return False

    def word(self, choices: tuple[str, ...] | dict[str, str], expected: str) -> str:
        word = self.peek()
        if word not in choices:
            raise self.error(expected)
        self.at += 1
        return choices[word] if isinstance(choices, dict) else word

    def number(self, expected: str, high: int = 99) -> int:
        word = self.peek()
        if word is None or not (word.isascii() and word.isdigit()) or not 1 <= int(word) <= high:
            raise self.error(expected)
        self.at += 1
        return int(word)

    def numbers(self, expected: str) -> tuple[int, ...]:
        found = []
        while self.peek() is not None and self.peek().isdigit():
            found.append(self.number(expected))
        return tuple(found)

    def end(self) -> None:
        if self.peek() is not None:
            raise self.error("the end of the clause")


_PIECE_HINT = "a colour (yellow, red, black, green, blue)"


def _piece(cur: _Clause, default_body: bool) -> tuple[str, str]:
    colour = cur.word(_COLOUR_WORDS, _PIECE_HINT)
    if default_body and cur.peek() not in KINDS:
        return colour, "body"
    return colour, cur.word(KINDS, "head, body or tail after the colour, as in 'red head'")


def _clause(text: str) -> tuple[str, object]:
    """One clause: its verb and its parsed value."""
    cur = _Clause(text)
    verb = cur.peek()
    if verb not in (*VERBS, "fulfill"):
        raise cur.error(f"an order ({', '.join(VERBS)})")
    cur.at += 1
    value: object
    if verb == "keep":
        if cur.take("none"):
            value = Keep(())
        else:
            cards = cur.numbers("prophecy card numbers")
            if not cards:
                raise cur.error("the prophecy card numbers to keep, or 'none', as in 'keep 12 31'")
            value = Keep(tuple(sorted(cards)))
    elif verb == "take":
        kind = cur.word(KINDS, "head, tail or body, as in 'take body 3'")
        value = Take(kind, cur.number(f"a {kind} space number, as in 'take {kind} 1'"))
    elif verb == "choose":
        if cur.take("none"):
            value = Choose()
        else:
            cards = cur.numbers("prophecy card numbers")
            deck = 0
            if cur.take("deck"):
                deck = cur.number("how many cards from the deck, as in 'deck 1'") if cur.peek() else 1
            if not cards and not deck:
                raise cur.error("face-up prophecy numbers and/or 'deck N', as in 'choose 12 deck 1'")
            value = Choose(cards, deck)
    elif verb == "discard":
        cards = cur.numbers("prophecy card numbers")
        if not cards:
            raise cur.error("the prophecy card numbers to discard, as in 'discard 3 12'")
        value = cards
    elif verb == "pass":
        value = Assemble(())
    elif verb == "sacrifice":
        token = cur.word(("pick", "future", "commit"), "pick, future or commit, as in 'sacrifice pick body'")
        if token == "pick":
            value = Sacrifice("pick", kind=cur.word(KINDS, "head, tail or body, as in 'sacrifice pick body'"))
        elif token == "commit":
            cur.take("temple")
            value = Sacrifice("commit", temple=cur.number("a face-up temple card number, as in 'sacrifice commit 7'"))
        else:
            value = Sacrifice("future")
    elif verb == "new":
        value = New(*_piece(cur, default_body=True))
    elif verb == "add":
        colour, kind = _piece(cur, default_body=True)
        cur.take("to")
        coatl = cur.number("a cóatl number after 'to', as in 'add red body to 1'")
        end = cur.word(("front", "back"), "'front', 'back' or the end of the clause") if cur.peek() else None
        if end is not None and kind != "body" and end != ("front" if kind == "head" else "back"):
            cur.at -= 1
            raise cur.error(f"nothing, or '{'front' if kind == 'head' else 'back'}': "
                            f"a {kind} goes at the {'front' if kind == 'head' else 'back'}")
        value = Add(colour, kind, coatl, kind == "body" and end == "front")
    elif verb in ("fulfil", "fulfill"):
        cards = cur.numbers("prophecy card numbers")
        if not cards:
            raise cur.error("prophecy card numbers, as in 'fulfil 12 on 1'")
        if not cur.take("on", "to"):
            raise cur.error("'on' and a cóatl number, as in 'fulfil 12 on 1'")
        value = Fulfil(cards, cur.number("a cóatl number, as in 'fulfil 12 on 1'"))
    else:  # complete
        coatl = cur.number("a cóatl number, as in 'complete 1'")
        temple = None
        if cur.take("with", "temple"):
            cur.take("temple")
            temple = cur.number("a temple card number, as in 'complete 1 with temple 7'")
        value = Complete(coatl, temple)
    cur.end()
    return ("fulfil" if verb == "fulfill" else verb), value


def parse_orders(text: str) -> list[Order]:
    """A submission's orders; raise ParseError naming the line and what was expected."""
    clauses: list[tuple[int, str, str, object]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        for part in line.split("#", 1)[0].split(";"):
            part = part.strip()
            if not part:
                continue
            if len(clauses) >= MAX_CLAUSES:
                raise ParseError(f"at most {MAX_CLAUSES} clauses in one submission", line=part,
                                 expected="fewer clauses")
            try:
                verb, value = _clause(part)
            except ParseError as error:
                raise ParseError(f"line {number}: {error}", line=error.line, expected=error.expected) from None
            clauses.append((number, part, verb, value))
    orders: list[Order] = []
    steps: list[Step] = []
    discard: tuple[int, ...] | None = None
    for number, part, verb, value in clauses:
        if discard is not None and verb != "choose":
            raise ParseError(f"line {number}: {part!r}: expected 'choose ...' after 'discard', found '{verb}'",
                             line=part, expected="'choose ...' after 'discard'")
        if verb in STEP_VERBS:
            steps.append(value)  # type: ignore[arg-type]
            continue
        if steps:
            orders.append(Assemble(tuple(steps)))
            steps = []
        if verb == "discard":
            discard = value  # type: ignore[assignment]
        elif verb == "choose" and discard is not None:
            orders.append(Choose(value.cards, value.deck, discard))  # type: ignore[attr-defined]
            discard = None
        else:
            orders.append(value)  # type: ignore[arg-type]
    if discard is not None:
        raise ParseError("expected 'choose ...' after 'discard', found the end of the orders",
                         line="discard", expected="'choose ...' after 'discard'")
    if steps:
        orders.append(Assemble(tuple(steps)))
    return orders
