"""Editions: the power cards (number, territory type or wild, end-game points) and the prosperity deck.

The printed values are not all public, so they are data a group can replace.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.aztlan.board import TERRAIN_TYPES
from engine.aztlan.cards import PROSPERITY_CARDS, WILD
from engine.core import SetupError

FORMAT = "aztlan-edition/1"
MAX_DECK = 200


@dataclass(frozen=True, slots=True)
class PowerCard:
    number: int
    type: str  # a territory type, or "wild"
    points: int  # scored at the end if the card was never played


@dataclass(frozen=True)
class Edition:
    name: str
    title: str
    power_cards: tuple[PowerCard, ...]
    deck: tuple[str, ...]  # the prosperity deck before shuffling, in a canonical order

    def card(self, number: int) -> PowerCard:
        for card in self.power_cards:
            if card.number == number:
                return card
        raise KeyError(number)

    def to_dict(self) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for card in self.deck:
            counts[card] = counts.get(card, 0) + 1
        return {"format": FORMAT, "name": self.name, "title": self.title,
                "power_cards": [{"number": c.number, "type": c.type, "points": c.points}
                                for c in self.power_cards],
                "prosperity_deck": counts}


def _fail(message: str) -> SetupError:
    return SetupError(f"edition: {message}")


def load_edition(data: Any) -> Edition:
    """Validate an edition given as a JSON object; raise SetupError saying what is wrong."""
    if not isinstance(data, dict):
        raise _fail("must be a JSON object")
    if data.get("format") != FORMAT:
        raise _fail(f"'format' must be {FORMAT!r}")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise _fail("'name' must be a non-empty string")
    cards = data.get("power_cards")
    if not isinstance(cards, list) or not 1 <= len(cards) <= 12:
        raise _fail("'power_cards' must be a list of 1 to 12 cards")
    power: list[PowerCard] = []
    for raw in cards:
        if not isinstance(raw, dict):
            raise _fail("each power card must be an object")
        number, kind, points = raw.get("number"), raw.get("type"), raw.get("points")
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 99:
            raise _fail(f"power card number {number!r} must be a whole number from 1 to 99")
        if kind != WILD and kind not in TERRAIN_TYPES:
            raise _fail(f"power card {number}: type {kind!r} is not one of "
                        f"{', '.join((*TERRAIN_TYPES, WILD))}")
        if not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= 99:
            raise _fail(f"power card {number}: points must be a whole number from 0 to 99")
        if any(card.number == number for card in power):
            raise _fail(f"power card {number} appears twice")
        power.append(PowerCard(number, kind, points))
    if len(power) <= 5:
        raise _fail("a player needs more power cards than there are ages (at least 6)")
    counts = data.get("prosperity_deck")
    if not isinstance(counts, dict):
        raise _fail("'prosperity_deck' must map card ids to counts")
    deck: list[str] = []
    for card in PROSPERITY_CARDS:  # canonical order, so the same edition shuffles the same way
        count = counts.get(card, 0)
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise _fail(f"prosperity card {card!r}: count must be a whole number >= 0")
        deck.extend([card] * count)
    unknown = set(counts) - set(PROSPERITY_CARDS)
    if unknown:
        raise _fail(f"unknown prosperity card {sorted(unknown)[0]!r}; known: "
                    f"{', '.join(PROSPERITY_CARDS)}")
    if len(deck) > MAX_DECK:
        raise _fail(f"the prosperity deck may hold at most {MAX_DECK} cards")
    power.sort(key=lambda card: card.number)
    return Edition(name, str(data.get("title", name)), tuple(power), tuple(deck))
