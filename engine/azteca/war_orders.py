"""The Flower War's orders (phase 7) and their grammar (docs/rules-azteca.md, "Orders").

    plan intercept A B, allow toltecs, retreat 3, reserve 2, losses warriors, cousin none, promote yes
    plan none                                     standing orders for the phase (secret, all at once)
    reorganise A 2w 1j, B 3w, R 1w                 new contents of boxes standing together, or met by
                                                  the move that follows (own turn)
    move A chalco | move A lake-2 tlatelolco | move A chalco raid | pass   an army's move (own turn;
                                                  `raid` plays a Raid card with it), or none
    reserve 1w 1j | reserve none                  the Reserve's commitment to a battle
    cousin warrior | cousin jaguar | cousin none  a cousin's counter for a neutral (14.14)
    lose A 1w, R 1j                               the counters a battle's lances capture
    retreat A R | retreat none                    parts that leave a battle after a round
    promote A | promote cousin | promote none     the warrior a victory makes a Jaguar knight
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from engine.core import ParseError

ARMIES = ("A", "B", "C")
RESERVE_BOX = "R"
# A battle's group keys (engine/azteca/battle.py) as orders write them.
GROUP_WORDS = {"A": "A", "B": "B", "C": "C", "R": "reserve", "RESERVE": "reserve", "COUSIN": "cousin"}
SYNTAX = {
    "plan": "plan intercept A B, allow SEAT..|all|none, retreat N, reserve N, losses warriors|jaguars, "
            "cousin warrior|jaguar|none, promote yes|no | plan none",
    "reorganise": "reorganise A 2w 1j, B 3w, R 1w", "move": "move ARMY TERRITORY... [raid] | pass", "pass": "pass",
    "reserve": "reserve 1w 1j | reserve none", "cousin": "cousin warrior|jaguar|none",
    "lose": "lose A 1w, R 1j", "retreat": "retreat A R | retreat none", "promote": "promote A|R|cousin|none",
}
HEADS = frozenset(SYNTAX) | {"reorganize"}


@dataclass(frozen=True, slots=True)
class Plan:
    """Standing orders for this Flower War: interception, consent to cross zones one controls,
    and battle answers given in advance (None: asked in each battle)."""
    intercept: tuple[str, ...] = ()
    allow: tuple[str, ...] | None = None  # None: everybody (the controller has not forbidden)
    retreat_below: int | None = None
    reserve: int | None = None
    losses: str | None = None  # "warriors" or "jaguars" first
    cousin: str | None = None
    promote: bool | None = None


@dataclass(frozen=True, slots=True)
class Reorganise:
    boxes: tuple[tuple[str, int, int], ...]  # A, B, C, R order: each named box's new contents


@dataclass(frozen=True, slots=True)
class Move:
    army: str | None  # None: pass
    route: tuple[str, ...] = ()  # regions entered, or just the destination
    raid: bool = False  # a Raid card played with the move


@dataclass(frozen=True, slots=True)
class Answer:
    """One answer to a battle question (engine/azteca/battle.py Ask kinds)."""
    kind: str  # "reserve", "cousin", "losses", "retreat", "experience"
    value: object


def _error(message: str, line: str, head: str) -> ParseError:
    return ParseError(message, line=line, expected=SYNTAX.get(head, "; ".join(SYNTAX.values())))


def _counts(part: str, line: str, head: str) -> tuple[int, int]:
    counts = {"w": 0, "j": 0}
    for word in part.split():
        if len(word) < 2 or word[-1] not in counts or not word[:-1].isdigit() or len(word) > 3:
            raise _error(f"write counters as '2w 1j', not {part!r}", line, head)
        counts[word[-1]] += int(word[:-1])
    return counts["w"], counts["j"]


def _plan(rest: str, line: str) -> Plan:
    if rest in ("none", "nothing", ""):
        return Plan()
    fields: dict[str, object] = {}
    for part in (p.strip() for p in rest.split(",")):
        head, _, value = part.partition(" ")
        words = value.split()
        if head in fields or (head == "allow" and "allow" in fields):
            raise _error(f"{head} is given twice", line, "plan")
        if head == "intercept" and all(w.upper() in ARMIES for w in words):
            fields[head] = tuple(sorted({w.upper() for w in words}))
        elif head == "allow" and words:
            fields[head] = () if words == ["none"] else None if words == ["all"] else tuple(sorted(set(words)))
        elif head in ("retreat", "reserve") and len(words) == 1 and words[0].isdigit() and len(words[0]) < 3:
            fields["retreat_below" if head == "retreat" else head] = int(words[0])
        elif head == "losses" and words in (["warriors"], ["jaguars"]):
            fields[head] = words[0]
        elif head == "cousin" and words in (["warrior"], ["jaguar"], ["none"]):
            fields[head] = words[0]
        elif head == "promote" and words in (["yes"], ["no"]):
            fields[head] = words == ["yes"]
        else:
            raise _error(f"cannot read {part!r} as a standing order", line, "plan")
    return Plan(**fields)  # type: ignore[arg-type]


def _groups(rest: str, line: str, head: str) -> tuple[str, ...]:
    words = rest.upper().split()
    if any(w not in GROUP_WORDS or w == "COUSIN" for w in words) or len(set(words)) != len(words):
        raise _error(f"name armies A, B, C or R (the Reserve), not {rest!r}", line, head)
    return tuple(GROUP_WORDS[w] for w in words)


def parse_war(head: str, rest: str, line: str, resolve: Callable[[str], str] | None) -> object:
    words = rest.split()
    if head == "plan":
        return _plan(rest, line)
    if head in ("reorganise", "reorganize") and rest:
        boxes: dict[str, tuple[int, int]] = {}
        for part in (p.strip() for p in rest.split(",")):
            box, _, counts = part.partition(" ")
            if box.upper() not in (*ARMIES, RESERVE_BOX) or box.upper() in boxes:
                raise _error(f"{box!r} is not a box named once (A, B, C or R)", line, "reorganise")
            boxes[box.upper()] = _counts(counts, line, "reorganise") if counts.strip() not in ("", "0", "none") else (0, 0)
        return Reorganise(tuple((b, *boxes[b]) for b in (*ARMIES, RESERVE_BOX) if b in boxes))  # type: ignore[misc]
    if head == "pass" and not words:
        return Move(None)
    raid = words[-1:] == ["raid"]
    if head == "move" and len(words) >= 2 + raid and words[0].upper() in ARMIES and len(words) <= 12:
        return Move(words[0].upper(), tuple(resolve(w) if resolve else w for w in words[1:len(words) - raid]), raid)
    if head == "reserve" and len(words) >= 1:
        return Answer("reserve", (0, 0) if words == ["none"] else _counts(rest, line, head))
    if head == "cousin" and words in (["warrior"], ["jaguar"], ["none"]):
        return Answer("cousin", words[0])
    if head == "lose" and rest:
        lost: list[str] = []
        for part in (p.strip() for p in rest.split(",")):
            group, _, counts = part.partition(" ")
            (key,) = _groups(group, line, head) or ("",)
            warriors, jaguars = _counts(counts, line, head)
            lost += [f"{key}:warrior"] * warriors + [f"{key}:jaguar"] * jaguars
        return Answer("losses", tuple(sorted(lost)))
    if head == "retreat" and words:
        return Answer("retreat", () if words == ["none"] else _groups(rest, line, head))
    if head == "promote" and len(words) == 1:
        word = words[0]
        return Answer("experience", "none" if word == "none" else "cousin" if word == "cousin"
                      else _groups(word, line, head)[0])
    raise _error(f"cannot read {line.strip()!r}", line, head)


def _count_text(warriors: int, jaguars: int) -> str:
    return " ".join(f"{n}{k}" for n, k in ((warriors, "w"), (jaguars, "j")) if n) or "0w"


def _group_text(key: str) -> str:
    return "R" if key == "reserve" else key


def war_text(order: object) -> str:
    if isinstance(order, Plan):
        items = [f"intercept {' '.join(order.intercept)}"] if order.intercept else []
        if order.allow is not None:
            items.append(f"allow {' '.join(order.allow) or 'none'}")
        items += [f"{word} {value}" for word, value in (("retreat", order.retreat_below), ("reserve", order.reserve),
                                                        ("losses", order.losses), ("cousin", order.cousin))
                  if value is not None]
        if order.promote is not None:
            items.append(f"promote {'yes' if order.promote else 'no'}")
        return f"plan {', '.join(items)}" if items else "plan none"
    if isinstance(order, Reorganise):
        return "reorganise " + ", ".join(f"{box} {_count_text(w, j)}" for box, w, j in order.boxes)
    if isinstance(order, Move):
        return "pass" if order.army is None else f"move {order.army} {' '.join(order.route)}" + " raid" * order.raid
    if isinstance(order, Answer):
        value = order.value
        if order.kind == "reserve":
            return "reserve " + (_count_text(*value) if sum(value) else "none")  # type: ignore[arg-type]
        if order.kind == "cousin":
            return f"cousin {value}"
        if order.kind == "losses":
            keys = sorted({item.rsplit(':', 1)[0] for item in value})  # type: ignore[union-attr]
            return "lose " + ", ".join(
                f"{_group_text(k)} {_count_text(value.count(f'{k}:warrior'), value.count(f'{k}:jaguar'))}"  # type: ignore[union-attr]
                for k in keys)
        if order.kind == "retreat":
            return "retreat " + (" ".join(_group_text(k) for k in value) or "none")  # type: ignore[union-attr]
        return f"promote {_group_text(str(value))}"
    raise TypeError(f"not an Azteca order: {order!r}")
