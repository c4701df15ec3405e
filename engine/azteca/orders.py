"""Azteca's orders: small value types and their one text grammar (docs/rules-azteca.md, "Orders").

    dike tizapan                                  the Aztecs' dike to a shore (setup, purchases)
    army A 3w 1j, B 3w 1j, C 2w 1j, R 2w           the secret organisation chart (setup)
    place texcoco                                 a population marker (setup)
    discard raid tlaloc | keep                    cards kept (phase 1, secret)
    buy A 2w, R 1j, general B, pochteca 1, boat 1, dike tizapan | buy nothing    (phase 3)
    look 1 3                                      two slave-market cards (phase 4)
    bid 2 3 | bid none                            lot 2 for 3 Tributes (phase 4, secret; also a re-bid)
    send A 11, B exp, 2B4, 1B1 | send nothing      pochteca destinations and boat zones (phase 5, secret)
    mission A alliance, B espionage | mission none    what each pochteca does (phase 5, in turn)
    attack 2 toltecs | attack none                 a lake battle (phase 6, in turn)
    join attacker | join defender | join neutral   a third party in the zone (phase 6, secret)
    continue | stop                                the attacker after each round of a lake battle
    quetzalcoatl 5 | tezcatlipoca 3               Sacrifice points offered (phase 8, secret)
    play tlaloc | play chalchiuhtlicue 2          an Azteca card, added to any decision owed (8.0)
    offer toltecs 3 tributes for card tlaloc      a deal, added to any decision owed (18.0's options:
    accept aztecs 1 | lend toltecs boats 2        engine/azteca/deal_orders.py)

One order a line; ';' also ends an order.  Territories are written by key or by number.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Union

from engine.azteca.deal_orders import HEADS as DEAL_HEADS, SYNTAX as DEAL_SYNTAX, DealAnswer, DealOffer, Lend, deal_text, parse_deal
from engine.azteca.war_orders import HEADS as WAR_HEADS, Answer, Move, Plan, Reorganise, parse_war, war_text
from engine.core import ParseError

BOXES = ("A", "B", "C", "R")  # three armies and the Reserve
GENERALS = ("A", "B", "C")
GODS = ("quetzalcoatl", "tezcatlipoca")
POCHTECAS = ("A", "B", "C")
EXPEDITION = "exp"
MISSIONS = ("alliance", "alliance 2", "alliance 4", "rebellion", "assimilation", "espionage", "none")
SIDES = ("attacker", "defender", "neutral")
MAX_ORDERS = 50
MAX_NUMBER = 999

Box = tuple[str, int, int]  # (box, warriors, jaguar knights)


@dataclass(frozen=True, slots=True)
class Dike:
    shore: str


@dataclass(frozen=True, slots=True)
class Army:
    boxes: tuple[Box, ...]  # A, B, C, R order; empty boxes left out


@dataclass(frozen=True, slots=True)
class Place:
    territory: str


@dataclass(frozen=True, slots=True)
class Discard:
    cards: tuple[str, ...]  # sorted; () keeps the whole hand


@dataclass(frozen=True, slots=True)
class Buy:
    boxes: tuple[Box, ...] = ()  # new warriors and Jaguar knights, placed secretly
    generals: tuple[str, ...] = ()
    pochtecas: int = 0
    boats: int = 0
    dikes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Look:
    lots: tuple[int, ...]  # sorted


@dataclass(frozen=True, slots=True)
class Bid:
    lot: int | None  # None: no bid
    tributes: int = 0


@dataclass(frozen=True, slots=True)
class Offer:
    god: str
    points: int


@dataclass(frozen=True, slots=True)
class Send:
    """The phase-5 sheet (12.0, 13.0): each pochteca's destination and every boat's lake zone."""
    pochtecas: tuple[tuple[str, str], ...] = ()  # (letter, territory key or EXPEDITION), by letter
    boats: tuple[tuple[int, int], ...] = ()  # (lake zone number, boats), by zone


@dataclass(frozen=True, slots=True)
class Missions:
    missions: tuple[tuple[str, str], ...] = ()  # (letter, mission) by letter; one left out does none


@dataclass(frozen=True, slots=True)
class Attack:
    zone: int | None  # None: no (more) attack this turn
    seat: str = ""


@dataclass(frozen=True, slots=True)
class Join:
    side: str  # one of SIDES


@dataclass(frozen=True, slots=True)
class Fight:
    on: bool  # the attacker goes on to another round (True) or stops the lake battle


@dataclass(frozen=True, slots=True)
class Play:
    """An Azteca card played (8.0): given beside a decision, it never answers it (engine/azteca/cards.py)."""
    card: str
    target: str = ""  # what the card's effect names (a lake zone number), "" if nothing


Order = Union[Dike, Army, Place, Discard, Buy, Look, Bid, Offer, Send, Missions, Attack, Join, Fight, Play, Plan,
              Reorganise, Move, Answer, DealOffer, DealAnswer, Lend]
Resolve = Callable[[str], str]  # a territory as written -> its key

_NUMBER = re.compile(r"\d{1,3}")
_TERRITORY = re.compile(r"[a-z0-9][a-z0-9-]{0,40}")
_CARD = re.compile(r"[a-z][a-z-]{0,40}")
_COUNT = re.compile(r"(\d{1,2})\s*([wj])")
SYNTAX = {
    "dike": "dike SHORE", "army": "army A 3w 1j, B 3w 1j, C 2w 1j, R 2w", "place": "place TERRITORY",
    "discard": "discard CARD... | keep", "buy": "buy [A 2w 1j,] [general B,] [pochteca N,] [boat N,] "
    "[dike SHORE] | buy nothing", "look": "look N N", "bid": "bid LOT TRIBUTES | bid none",
    "quetzalcoatl": "quetzalcoatl POINTS", "tezcatlipoca": "tezcatlipoca POINTS",
    "send": "send A 11, B exp, 2B4 | send nothing", "mission": "mission A alliance, B espionage | mission none",
    "attack": "attack ZONE SEAT | attack none", "join": "join attacker | join defender | join neutral",
    "continue": "continue | stop", "stop": "continue | stop", "play": "play CARD [TARGET]",
    **DEAL_SYNTAX,  # with the options of 18.0 only
}


def _error(message: str, line: str, word: str = "") -> ParseError:
    return ParseError(message, line=line, expected=SYNTAX.get(word, "; ".join(SYNTAX.values())))


def _number(word: str, line: str, what: str, head: str) -> int:
    if not _NUMBER.fullmatch(word):
        raise _error(f"{what} must be a whole number, not {word!r}", line, head)
    return int(word)


def _territory(word: str, line: str, head: str, resolve: Resolve | None) -> str:
    if not _TERRITORY.fullmatch(word):
        raise _error(f"{word!r} is not a territory", line, head)
    return resolve(word) if resolve else word


def _box(part: str, line: str, head: str) -> Box:
    """'A 3w 1j' -> ('A', 3, 1)."""
    letter, _, rest = part.strip().partition(" ")
    box = letter.upper()
    if box not in BOXES:
        raise _error(f"{letter!r} is not a box of the organisation chart (A, B, C or R)", line, head)
    counts = {"w": 0, "j": 0}
    rest = rest.replace(" ", "")
    position = 0
    for match in _COUNT.finditer(rest):
        if match.start() != position or counts[match.group(2)]:
            break
        counts[match.group(2)] = int(match.group(1))
        position = match.end()
    if position != len(rest) or not rest:
        raise _error(f"box {box}: write counters as '3w 1j' (warriors, Jaguar knights), not {rest!r}", line, head)
    return box, counts["w"], counts["j"]


def _boxes(parts: list[str], line: str, head: str) -> tuple[Box, ...]:
    merged: dict[str, list[int]] = {}
    for part in parts:
        box, warriors, jaguars = _box(part, line, head)
        if box in merged:
            raise _error(f"box {box} is named twice", line, head)
        merged[box] = [warriors, jaguars]
    return tuple((box, *merged[box]) for box in BOXES if box in merged and sum(merged[box]))  # type: ignore[misc]


def _buy(rest: str, line: str, resolve: Resolve | None) -> Buy:
    if rest in ("nothing", "none", ""):
        return Buy()
    boxes, generals, dikes = [], [], []
    counts = {"pochteca": 0, "boat": 0}
    for part in (p.strip() for p in rest.split(",")):
        words = part.split()
        if not words:
            raise _error("an empty item between commas", line, "buy")
        item = words[0].rstrip("s")
        if item in counts and len(words) == 2 and not counts[item]:
            counts[item] = _number(words[1], line, f"the number of {item}s", "buy")
        elif item == "general" and len(words) == 2 and words[1].upper() in GENERALS:
            generals.append(words[1].upper())
        elif item == "dike" and len(words) == 2:
            dikes.append(_territory(words[1], line, "buy", resolve))
        elif words[0].upper() in BOXES and len(words[0]) == 1:
            boxes.append(part)
        else:
            raise _error(f"cannot read {part!r} as a purchase", line, "buy")
    return Buy(_boxes(boxes, line, "buy"), tuple(sorted(set(generals))), counts["pochteca"], counts["boat"],
               tuple(sorted(set(dikes))))


_TIGHT_POCHTECA = re.compile(r"([abc])(\d{1,3}|exp)")
_BOATS = re.compile(r"(\d{1,2})b(\d{1,2})")


def _send(rest: str, line: str, resolve: Resolve | None) -> Send:
    """'A 11, B exp, 2B4' or the paper sheet's 'A11 BEXP 2B4': letters with destinations, boats
    as COUNT B ZONE."""
    if rest in ("nothing", "none"):
        return Send()
    words = rest.replace(",", " ").split()
    pochtecas: dict[str, str] = {}
    boats: dict[int, int] = {}
    i = 0
    while i < len(words):
        word, tight, fleet = words[i], _TIGHT_POCHTECA.fullmatch(words[i]), _BOATS.fullmatch(words[i])
        if fleet:
            zone, count = int(fleet.group(2)), int(fleet.group(1))
            if zone in boats:
                raise _error(f"lake zone {zone} is written twice", line, "send")
            boats[zone] = count
            i += 1
            continue
        if tight:
            letter, where = tight.group(1), tight.group(2)
            i += 1
        elif word in ("a", "b", "c") and i + 1 < len(words):
            letter, where = word, words[i + 1]
            i += 2
        else:
            raise _error(f"cannot read {word!r}: write a pochteca as 'A 11' or 'A exp', boats as '2B4'", line, "send")
        if letter.upper() in pochtecas:
            raise _error(f"pochteca {letter.upper()} is sent twice", line, "send")
        pochtecas[letter.upper()] = where if where == EXPEDITION else _territory(where, line, "send", resolve)
    return Send(tuple(sorted(pochtecas.items())), tuple(sorted(boats.items())))


def _missions(rest: str, line: str) -> Missions:
    if rest in ("none", "nothing"):
        return Missions()
    chosen: dict[str, str] = {}
    for part in (p.strip() for p in rest.split(",")):
        letter, _, mission = part.partition(" ")
        if letter.upper() not in POCHTECAS or mission not in MISSIONS:
            raise _error(f"cannot read {part!r}: a pochteca's letter and one of {', '.join(MISSIONS)}", line, "mission")
        if letter.upper() in chosen:
            raise _error(f"pochteca {letter.upper()} is given two missions", line, "mission")
        chosen[letter.upper()] = mission
    return Missions(tuple(sorted((letter, m) for letter, m in chosen.items() if m != "none")))


def parse_line(line: str, resolve: Resolve | None = None) -> Order:
    text = " ".join(line.lower().split())
    head, _, rest = text.partition(" ")
    words = rest.split()
    if head in WAR_HEADS:  # phase 7's orders (engine/azteca/war_orders.py)
        return parse_war(head, rest, line, resolve)  # type: ignore[return-value]
    if head in DEAL_HEADS:  # the options' deals (engine/azteca/deal_orders.py)
        return parse_deal(head, rest, line)  # type: ignore[return-value]
    if head == "dike" and len(words) == 1:
        return Dike(_territory(words[0], line, head, resolve))
    if head == "place" and len(words) == 1:
        return Place(_territory(words[0], line, head, resolve))
    if head == "army" and rest:
        return Army(_boxes(rest.split(","), line, head))
    if head == "keep" and not words:
        return Discard(())
    if head == "discard" and words:
        return Discard(tuple(sorted(words)))
    if head == "buy":
        return _buy(rest, line, resolve)
    if head == "look" and len(words) == 2:
        return Look(tuple(sorted(_number(w, line, "a lot", head) for w in words)))
    if head == "bid" and words in (["none"], ["nothing"]):
        return Bid(None)
    if head == "bid" and len(words) == 2:
        return Bid(_number(words[0], line, "the lot", head), _number(words[1], line, "the Tributes bid", head))
    if head == "send" and words:
        return _send(rest, line, resolve)
    if head == "mission" and words:
        return _missions(rest, line)
    if head == "attack" and words in (["none"], ["nothing"]):
        return Attack(None)
    if head == "attack" and len(words) == 2:
        return Attack(_number(words[0], line, "the lake zone", head), words[1])
    if head == "join" and len(words) == 1 and words[0] in SIDES:
        return Join(words[0])
    if head in ("continue", "stop") and not words:
        return Fight(head == "continue")
    if head == "play" and _CARD.fullmatch(words[0] if words else "") and (
            len(words) == 1 or len(words) == 2 and _TERRITORY.fullmatch(words[1])):
        return Play(words[0], words[1] if len(words) == 2 else "")
    if head in GODS and len(words) == 1:
        return Offer(head, _number(words[0], line, "the Sacrifice points", head))
    if head in SYNTAX or head == "keep":
        raise _error(f"cannot read {line.strip()!r}", line, head)
    raise _error(f"not an Azteca order: {line.strip()!r}", line)


def parse_orders(text: str, resolve: Resolve | None = None) -> list[Order]:
    lines = [part for raw in text.splitlines() for part in raw.split(";") if part.strip()]
    if not lines:
        raise _error("no order given", text)
    if len(lines) > MAX_ORDERS:
        raise _error(f"at most {MAX_ORDERS} orders at once", text)
    return [parse_line(line, resolve) for line in lines]


def box_text(boxes: tuple[Box, ...]) -> str:
    return ", ".join(f"{box} " + " ".join(f"{n}{kind}" for n, kind in ((w, "w"), (j, "j")) if n)
                     for box, w, j in boxes)


def to_text(order: Order) -> str:
    if isinstance(order, Dike):
        return f"dike {order.shore}"
    if isinstance(order, Army):
        return f"army {box_text(order.boxes)}" if order.boxes else "army A 0w"
    if isinstance(order, Place):
        return f"place {order.territory}"
    if isinstance(order, Discard):
        return f"discard {' '.join(order.cards)}" if order.cards else "keep"
    if isinstance(order, Buy):
        items = ([box_text(order.boxes)] if order.boxes else []) + [f"general {g}" for g in order.generals]
        items += [f"{kind} {n}" for kind, n in (("pochteca", order.pochtecas), ("boat", order.boats)) if n]
        items += [f"dike {shore}" for shore in order.dikes]
        return f"buy {', '.join(items)}" if items else "buy nothing"
    if isinstance(order, Look):
        return "look " + " ".join(map(str, order.lots))
    if isinstance(order, Bid):
        return "bid none" if order.lot is None else f"bid {order.lot} {order.tributes}"
    if isinstance(order, Offer):
        return f"{order.god} {order.points}"
    if isinstance(order, Send):
        items = [f"{letter} {where}" for letter, where in order.pochtecas]
        items += [f"{count}B{zone}" for zone, count in order.boats]
        return f"send {', '.join(items)}" if items else "send nothing"
    if isinstance(order, Missions):
        chosen = [f"{letter} {mission}" for letter, mission in order.missions]
        return f"mission {', '.join(chosen)}" if chosen else "mission none"
    if isinstance(order, Attack):
        return "attack none" if order.zone is None else f"attack {order.zone} {order.seat}"
    if isinstance(order, Join):
        return f"join {order.side}"
    if isinstance(order, Fight):
        return "continue" if order.on else "stop"
    if isinstance(order, Play):
        return f"play {order.card} {order.target}".rstrip()
    if isinstance(order, (DealOffer, DealAnswer, Lend)):
        return deal_text(order)
    return war_text(order)
