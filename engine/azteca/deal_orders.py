"""The orders of the options "The Big Deal" and "Pirogue Express Service" (18.0) and their
grammar (docs/rules-azteca.md, "Deals").  None of them answers a decision: each rides with
whatever decision its seat owes (engine/azteca/deals.py).

    offer toltecs 3 tributes, card tlaloc for boats 2     terms to one seat: what I give for what I ask
    offer toltecs card raid                               a gift (nothing asked)
    offer toltecs nothing for 2 tributes                  a request
    accept aztecs 1 | decline aztecs 1                    the aztecs' offer number 1 to me
    withdraw toltecs 1                                    my offer number 1 to the toltecs
    lend toltecs boats 2 4 | lend toltecs boats all       let the toltecs use my boats in zones 2, 4

Terms list items with ',' or 'and': `N tributes`, `card NAME` (one card an item), `boats ZONE...`
or `boats all` (leave to use one's boats in those lake zones this turn).  Offers are numbered per
pair of seats, 1, 2, ... in the order one seat makes them to the other.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core import ParseError

ALL_ZONES = 0  # `boats all`: every lake zone
SYNTAX = {
    "offer": "offer SEAT [N tributes][, card CARD]...[, boats ZONE...|all] [for ...] | offer SEAT nothing for ...",
    "accept": "accept SEAT N", "decline": "decline SEAT N", "withdraw": "withdraw SEAT N",
    "lend": "lend SEAT boats ZONE...|all",
}
HEADS = frozenset(SYNTAX)
_SEAT = re.compile(r"[a-z]{1,20}")
_CARD = re.compile(r"[a-z][a-z-]{0,40}")
_ZONE = re.compile(r"\d{1,2}")
_COUNT = re.compile(r"\d{1,3}")


@dataclass(frozen=True, slots=True)
class Terms:
    """What one side of a deal hands over."""
    tributes: int = 0
    cards: tuple[str, ...] = ()  # sorted; a card held twice may be named twice
    boats: tuple[int, ...] = ()  # lake zone numbers whose boats the other side may use; ALL_ZONES: all

    def __bool__(self) -> bool:
        return bool(self.tributes or self.cards or self.boats)


@dataclass(frozen=True, slots=True)
class DealOffer:
    seat: str  # to whom
    give: Terms
    take: Terms = Terms()


@dataclass(frozen=True, slots=True)
class DealAnswer:
    """`accept`, `decline` (an offer made to me) or `withdraw` (an offer I made)."""
    verb: str
    seat: str  # the other party
    number: int


@dataclass(frozen=True, slots=True)
class Lend:
    """Pirogue Express Service: leave to use one's boats in these zones for movements, this turn."""
    seat: str
    zones: tuple[int, ...]  # sorted; ALL_ZONES: every zone


DEAL_ORDERS = (DealOffer, DealAnswer, Lend)


def _error(message: str, line: str, head: str) -> ParseError:
    return ParseError(message, line=line, expected=SYNTAX[head])


def _seat(word: str, line: str, head: str) -> str:
    if not _SEAT.fullmatch(word):
        raise _error(f"{word!r} is not a seat", line, head)
    return word


def _zones(words: list[str], line: str, head: str) -> tuple[int, ...]:
    if words == ["all"]:
        return (ALL_ZONES,)
    if not words or not all(_ZONE.fullmatch(w) and int(w) for w in words) or len(set(words)) != len(words):
        raise _error(f"name lake zones once each by number, or 'all', not {' '.join(words)!r}", line, head)
    return tuple(sorted(int(w) for w in words))


def _terms(text: str, line: str) -> Terms:
    text = text.strip()
    if text in ("nothing", "none"):
        return Terms()
    tributes, cards, boats = 0, [], ()
    for part in (p.strip() for p in re.split(r",|\band\b", text)):
        words = part.split()
        if len(words) == 2 and _COUNT.fullmatch(words[0]) and words[1] in ("tribute", "tributes") and not tributes:
            tributes = int(words[0])
        elif len(words) == 2 and words[0] == "card" and _CARD.fullmatch(words[1]):
            cards.append(words[1])
        elif len(words) >= 2 and words[0] in ("boat", "boats") and not boats:
            boats = _zones(words[1:], line, "offer")
        else:
            raise _error(f"cannot read {part!r}: write 'N tributes', 'card CARD' or 'boats ZONE'", line, "offer")
    terms = Terms(tributes, tuple(sorted(cards)), boats)
    if not terms:
        raise _error("write 'nothing' for an empty side", line, "offer")
    return terms


def parse_deal(head: str, rest: str, line: str) -> object:
    words = rest.split()
    if head == "offer" and len(words) >= 2:
        give, _, take = " ".join(words[1:]).partition(" for ")
        offer = DealOffer(_seat(words[0], line, head), _terms(give, line), _terms(take, line) if take else Terms())
        if not offer.give and not offer.take:
            raise _error("an offer gives or asks something", line, head)
        return offer
    if head in ("accept", "decline", "withdraw") and len(words) == 2 and _COUNT.fullmatch(words[1]):
        return DealAnswer(head, _seat(words[0], line, head), int(words[1]))
    if head == "lend" and len(words) >= 3 and words[1] in ("boat", "boats"):
        return Lend(_seat(words[0], line, head), _zones(words[2:], line, head))
    raise _error(f"cannot read {line.strip()!r}", line, head)


def zones_text(zones: tuple[int, ...]) -> str:
    return "all" if ALL_ZONES in zones else " ".join(map(str, zones))


def terms_text(terms: Terms) -> str:
    items = [f"{terms.tributes} tributes"] if terms.tributes else []
    items += [f"card {card}" for card in terms.cards]
    items += [f"boats {zones_text(terms.boats)}"] if terms.boats else []
    return ", ".join(items) or "nothing"


def deal_text(order: object) -> str:
    if isinstance(order, DealOffer):
        return f"offer {order.seat} {terms_text(order.give)}" + (f" for {terms_text(order.take)}" if order.take else "")
    if isinstance(order, DealAnswer):
        return f"{order.verb} {order.seat} {order.number}"
    if isinstance(order, Lend):
        return f"lend {order.seat} boats {zones_text(order.zones)}"
    raise TypeError(f"not a deal order: {order!r}")
