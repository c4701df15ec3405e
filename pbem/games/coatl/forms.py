"""Cóatl's decision forms: the choices each form offers, and the order text a posted form
stands for (docs/orders.md, "Cóatl").

`choices(view)` lists exactly what the reader may pick now, from the owed decision's options
(the same the API gives) and the reader's own board, cóatls and hand in the view; the
template (templates/games/coatl/game/_decisions.html) offers nothing else.  `order_text(form)`
turns the posted fields into the very text a player could mail, checking their shape only:
the rules engine judges the orders, so a form and a mail are refused with the same words.
"""
from __future__ import annotations

import re
from typing import Any, Mapping

from engine.coatl.components import KINDS, packaged
from engine.coatl.requirements import COLOURS
from engine.core import OrderError
from pbem.games.coatl.cards import prophecy_words, temple_words

STEP_ROWS = 10  # assembly steps a form offers: a whole cóatl from a full board, its cards, completion
OPEN_ROWS = 4  # shown open; the rest behind "more steps"
ACTIONS = ("take", "choose", "assemble", "pass", "sacrifice")
_NUMBER = re.compile(r"[1-9][0-9]{0,2}")
_SPACE = re.compile(r"(head|body|tail) ([1-9][0-9]?)")
_SACRIFICE = re.compile(r"pick (head|body|tail)|future|commit [1-9][0-9]{0,2}")
_STEP = re.compile(r"(new)|(add|front|fulfil|complete)-([1-9])")
_PIECE = re.compile(rf"({'|'.join(COLOURS)}) ({'|'.join(KINDS)})")
TOKENS = {"pick": "Perfect Pick", "future": "See the Future", "commit": "Priest Commitment"}


# ---- what a form offers -----------------------------------------------------------------------

def choices(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """The legal choices of the reader's owed decision (None: none is owed), for the template."""
    me = view.get("me") or {}
    decisions = me.get("decisions") or []
    if not decisions:
        return None
    decision = decisions[0]
    kind, options = decision.get("kind"), decision.get("options") or {}
    rules = view.get("options") or {}
    if kind == "keep":
        return {"kind": kind, "keep_at_most": options.get("keep_at_most", 0),
                "dealt": _cards(options.get("dealt"), rules)}
    if kind == "choose":  # after See the Future: discards from the hand may make room
        hand = options.get("hand") or []
        most = packaged()[0].limits["hand"]
        deck = min(most, int(options.get("deck") or 0) + len(hand))
        return {"kind": kind, "hand": _cards(hand, rules), "row": _cards(options.get("row"), rules),
                "hand_room": options.get("hand_room", 0), "deck_counts": list(range(1, deck + 1))}
    if kind == "turn":
        return {"kind": kind, **_turn(view, me, options, rules)}
    return None


def _cards(numbers: Any, rules: Mapping[str, Any]) -> list[tuple[int, str]]:
    return [(card, prophecy_words(card, rules)) for card in numbers or []]


def _my_seat(view: Mapping[str, Any], me: Mapping[str, Any]) -> Mapping[str, Any]:
    return next((seat for seat in view.get("seats") or [] if seat.get("seat") == me.get("seat")), {})


def _turn(view: Mapping[str, Any], me: Mapping[str, Any], options: Mapping[str, Any],
          rules: Mapping[str, Any]) -> dict[str, Any]:
    pieces = packaged()[0]
    limits = pieces.limits
    seat = _my_seat(view, me)
    board = list(seat.get("board") or [])
    supply = view.get("supply") or {}
    take = [(f"{kind} {space}", f"{kind} {space}: " + ", ".join(supply[kind][space - 1] or ()))
            for kind in KINDS for space in (options.get("take") or {}).get(kind, [])]
    choose = options.get("choose") or {}
    room = int(choose.get("hand_room") or 0)
    deck_counts = list(range(1, min(room, int(choose.get("deck") or 0)) + 1))
    row = _cards(choose.get("row"), rules) if room else []
    coatls = list(seat.get("coatls") or [])
    temples = [(card, temple_words(card)) for card in [*options.get("temples", []), *options.get("commons", [])]]
    return {"take": take, "row": row, "deck_counts": deck_counts, "hand_room": room,
            "steps": _steps(board, coatls, options.get("hand") or [], limits),
            "pieces": [(text, board.count(text)) for text in sorted(set(board), key=_piece_order)],
            "hand": _cards(options.get("hand"), rules), "temples": temples,
            "sacrifice": _sacrifices(options.get("sacrifice") or [], options.get("commons") or [],
                                     view.get("bags") or {}, pieces.board - len(board), pieces.bodies_per_space),
            "rows": STEP_ROWS, "open_rows": OPEN_ROWS}


def _piece_order(text: str) -> tuple[int, str]:
    colour, _, kind = text.partition(" ")
    return KINDS.index(kind) if kind in KINDS else 9, colour


def _steps(board: list[str], coatls: list[Mapping[str, Any]], hand: list[int],
           limits: Mapping[str, int]) -> list[tuple[str, str]]:
    """The step verbs the form offers, each with the cóatl it names: the reader's unfinished
    cóatls, and with pieces on the board those an action could begin (numbered on from the
    last).  A cóatl is completed in the action that closes it, so completing needs pieces."""
    unfinished = [number for number, coatl in enumerate(coatls, start=1) if not coatl.get("complete")]
    begun = bool(board) and len(coatls) < limits["coatls"]
    numbers = unfinished + (list(range(len(coatls) + 1, limits["coatls"] + 1)) if begun else [])
    bodies = any(text.endswith(" body") for text in board)
    found: list[tuple[str, str]] = [("new", "begin a new cóatl with")] if begun else []
    for number in numbers:
        if board:
            found.append((f"add-{number}", f"add to cóatl {number}"))
        if bodies:
            found.append((f"front-{number}", f"add a body at the front of cóatl {number}"))
        if hand:
            found.append((f"fulfil-{number}", f"fulfil prophecies on cóatl {number}"))
        if board:
            found.append((f"complete-{number}", f"complete cóatl {number}"))
    return found


def _sacrifices(tokens: list[str], commons: list[int], bags: Mapping[str, int], room: int,
                per_space: int) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for token in tokens:
        if token == "pick":
            for kind in KINDS:
                size = per_space if kind == "body" else 1
                if int(bags.get(kind) or 0) >= size and room >= size:
                    found.append((f"pick {kind}", f"Perfect Pick: draw {size} {kind}"
                                  f"{'' if size == 1 else ' pieces'} from the bag"))
        elif token == "future":
            found.append(("future", "See the Future: a new face-up row, then choose"))
        elif token == "commit":
            found += [(f"commit {card}", f"Priest Commitment: take temple {card} face up") for card in commons]
    return found


# ---- the order a posted form stands for ---------------------------------------------------------

def order_text(form: Any) -> str:
    """The order text a submitted decision form (or the page's free text, kind "text") stands
    for; OrderError when a field is missing or malformed."""
    kind = form.get("kind")
    if kind == "text":
        return str(form.get("orders") or "")
    if kind == "keep":
        cards = _numbers(form, "keep")
        return f"keep {' '.join(cards)}" if cards else "keep none"
    if kind == "choose":
        discard = _numbers(form, "discard")
        text = _choose(form) or "choose none"
        return f"discard {' '.join(discard)}; {text}" if discard else text
    if kind == "turn":
        return _turn_text(form)
    raise OrderError("unknown kind of form")


def _numbers(form: Any, name: str) -> list[str]:
    values = form.getlist(name)
    if len(values) > 20 or not all(_NUMBER.fullmatch(str(value)) for value in values):
        raise OrderError(f"{name}: prophecy cards are given by their numbers")
    return list(dict.fromkeys(values))


def _choose(form: Any) -> str | None:
    """"choose 12 31 deck 1" from the face-up cards ticked and the deck count; None: neither."""
    cards = _numbers(form, "card")
    deck = str(form.get("deck") or "0")
    if not (deck == "0" or _NUMBER.fullmatch(deck)):
        raise OrderError("deck: how many cards from the deck, a number")
    if not cards and deck == "0":
        return None
    return " ".join(["choose", *cards, *([f"deck {deck}"] if deck != "0" else [])])


def _picked(form: Any, name: str, shape: re.Pattern[str], missing: str, malformed: str) -> str:
    """A select's value, checked against its shape: `missing` when none, `malformed` when odd."""
    value = str(form.get(name) or "")
    if not value:
        raise OrderError(missing)
    if not shape.fullmatch(value):
        raise OrderError(malformed)
    return value


def _turn_text(form: Any) -> str:
    action = form.get("action")
    if action == "take":
        return "take " + _picked(form, "take", _SPACE, "choose a supply space to take",
                                 "take: a supply space is a kind and a number, as in 'body 3'")
    if action == "choose":
        text = _choose(form)
        if text is None:
            raise OrderError("tick the face-up prophecies you take, or how many cards from the deck")
        return text
    if action == "assemble":
        return "; ".join(_assembly(form))
    if action == "pass":
        return "pass"
    if action == "sacrifice":
        return "sacrifice " + _picked(form, "sacrifice", _SACRIFICE, "choose the Sacrifice token to use",
                                      "sacrifice: pick KIND, future or commit N")
    raise OrderError(f"choose an action: {', '.join(ACTIONS)}")


def _assembly(form: Any) -> list[str]:
    """One clause per filled step row, in order; a step row with no verb is skipped."""
    clauses = []
    for row in range(1, STEP_ROWS + 1):
        field = f"step-{row}"
        verb = str(form.get(f"{field}-do") or "")
        if not verb:
            continue
        found = _STEP.fullmatch(verb)
        if not found:
            raise OrderError(f"step {row}: unknown step {verb[:20]!r}")
        what, number = found.group(1) or found.group(2), found.group(3)
        if what in ("new", "add", "front"):
            piece = str(form.get(f"{field}-piece") or "")
            if not _PIECE.fullmatch(piece):
                raise OrderError(f"step {row}: choose the piece from your board")
            if what == "new":
                clauses.append(f"new {piece}")
            else:
                front = what == "front"
                if front and not piece.endswith(" body"):
                    raise OrderError(f"step {row}: only a body is added at the front by choice "
                                     "(a head always goes at the front, a tail at the back)")
                clauses.append(f"add {piece} to {number}" + (" front" if front else ""))
        elif what == "fulfil":
            cards = _numbers(form, f"{field}-card")
            if not cards:
                raise OrderError(f"step {row}: tick the prophecies cóatl {number} fulfils")
            clauses.append(f"fulfil {' '.join(cards)} on {number}")
        else:
            temple = str(form.get(f"{field}-temple") or "")
            if temple and not _NUMBER.fullmatch(temple):
                raise OrderError(f"step {row}: a temple is given by its number")
            clauses.append(f"complete {number}" + (f" with temple {temple}" if temple else ""))
    if not clauses:
        raise OrderError("choose at least one assembly step (or pass)")
    return clauses

