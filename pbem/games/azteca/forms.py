"""Azteca's decision forms: the choices each form offers, and the order text a posted form
stands for (docs/rules-azteca.md, "Orders").

`choices(view)` lists, for each decision the reader owes, exactly what it may pick now, from
the decision's options (the same the API gives); the template
(templates/games/azteca/game/_decisions.html) offers nothing else.  `order_text(form)` turns
the posted fields into the very text a player could mail, checking their shape only: the
rules engine judges the orders, so a form and a mail are refused with the same words.  A card
play (`play CARD [TARGET]`) rides with any decision, as in a mail; so do the deals of 18.0's
options (`offer`, `accept`, `decline`, `withdraw`, `lend`: engine/azteca/deal_orders.py), from
the decision's `deal` options, and a deal may also be sent without the answer.
"""
from __future__ import annotations

import re
from typing import Any, Mapping

from engine.azteca.deal_orders import ALL_ZONES, DealAnswer, DealOffer, Lend, Terms, deal_text
from engine.azteca.geography import geography
from engine.azteca.orders import BOXES, EXPEDITION, POCHTECAS
from engine.core import OrderError
from pbem.games.azteca.cards import card_list, card_name

RETREAT_POINTS = 20  # "retreat N" offered up to: more combat points than a side musters in a valley battle
RESERVE_COUNTERS = 4  # "reserve N": a box holds 4 counters (14.1)
# The battle questions: each answers with one of the orders its options list, by this word.
BATTLE_HEADS = {"reserve": "reserve", "cousin": "cousin", "losses": "lose", "retreat": "retreat",
                "promote": "promote"}
OFFERS = {"urn": "quetzalcoatl", "tezcatlipoca": "tezcatlipoca"}
# Free text beside the fields, for forms with many: the whole order as a mail writes it.
TEXT_KINDS = ("army", "purchase", "send", "plan", "march")
_WORD = re.compile(r"[a-z0-9][a-z0-9-]{0,40}")
_NUMBER = re.compile(r"[0-9]{1,3}")
_PLAY = re.compile(r"[a-z][a-z-]{0,40}( [0-9a-z][0-9a-z-]{0,40})?")
_TARGET = re.compile(r"[0-9]{1,2} [a-z]{1,20}")
_ANSWER = re.compile(r"[a-z]{1,12}( [A-Za-z0-9]{1,8},?){0,12}")  # "lose A 1w, R 1j", "retreat A R"
_REORGANISE = re.compile(r"[ABCRabcr] [0-9wjWJ ]{1,12}(, ?[ABCRabcr] [0-9wjWJ ]{1,12}){0,3}")  # "A 2w 1j, R 2w"
_MISSION = re.compile(r"[a-z]{1,15}( [0-9])?")
_SEAT = re.compile(r"[a-z]{1,20}")
_CARD = re.compile(r"[a-z][a-z-]{0,40}")
_ZONE = re.compile(r"[1-9][0-9]?|all")  # a lake zone's number (never 0, which the engine reads as all)
_DEAL_ANSWER = re.compile(r"(accept|decline|withdraw) [a-z]{1,20} [0-9]{1,3}")


# ---- what a form offers -----------------------------------------------------------------------

def place_label(key: Any, players: int) -> str:
    """"7 Chalco" for a territory key; a lake zone "lake zone 2"; the key itself if unknown."""
    try:
        region = geography(players if players in (3, 4) else 4).region(str(key))
    except (KeyError, ValueError):
        return str(key)
    return f"lake zone {region.number}" if region.is_lake else f"{region.number} {region.name}"


def choices(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One entry per decision the reader owes, in order: its options and the lists the
    template offers, each a (value, label) pair."""
    players = int(view.get("players") or 4)
    return [_choice(view, decision, players) for decision in (view.get("me") or {}).get("decisions") or []]


def _choice(view: Mapping[str, Any], decision: Mapping[str, Any], players: int) -> dict[str, Any]:
    kind, o = str(decision.get("kind")), decision.get("options") or {}

    def places(keys: Any) -> list[tuple[str, str]]:
        return [(str(key), place_label(key, players)) for key in keys or []]

    found: dict[str, Any] = {"kind": kind, "o": o, "play": plays(o.get("play") or {}),
                             "free_text": kind in TEXT_KINDS,
                             "deal": deal_choices(view, o["deal"]) if o.get("deal") else None}
    if kind == "dike":
        found["shores"] = places(o.get("shores"))
    elif kind == "place":
        found["territories"] = places(o.get("territories"))
    elif kind == "army":
        limit = int(o.get("box_limit") or 0)
        found["boxes"] = [(box, upto(min(limit, o.get("warriors") or 0)), upto(min(limit, o.get("jaguars") or 0)))
                          for box in o.get("boxes") or BOXES]
    elif kind == "cards":
        found["hand"] = [(card, card_name(card)) for card in o.get("hand") or []]
    elif kind == "purchase":
        found.update(_purchase(o, players))
    elif kind == "send":
        zones = o.get("zones") or []
        found["pochtecas"] = [(letter, [*places(o.get("destinations")), (EXPEDITION, "an expedition")])
                              for letter in o.get("pochtecas") or []]
        found["zones"] = [(zone, upto(o.get("boats") or 0)) for zone in zones] if o.get("boats") else []
    elif kind == "mission":
        found["pochtecas"] = [(letter, place_label(about.get("territory"), players),
                               [m for m in about.get("missions") or [] if m != "none"])
                              for letter, about in sorted((o.get("pochtecas") or {}).items())]
    elif kind == "attack":
        found["targets"] = [(f"{zone} {seat}", f"the {seat.capitalize()} in lake zone {zone}")
                            for zone, seat in o.get("targets") or []]
    elif kind == "plan":
        found["retreat"] = list(range(0, RETREAT_POINTS + 1))  # 0: never retreat
        found["reserve"] = list(range(0, RESERVE_COUNTERS + 1))
    elif kind == "march":
        moves = o.get("moves") or {}
        found["armies"] = sorted(moves)
        found["destinations"] = places(sorted({t for ends in moves.values() for t in ends}))
        found["together"] = [" and ".join("the Reserve" if box == "R" else f"army {box}" for box in group)
                             for group in o.get("together") or []]
    elif kind in ("urn", "tezcatlipoca"):
        found["points"] = upto(o.get("sacrifice") or 0)
    return found


def choice_places(view: Mapping[str, Any]) -> list[str]:
    """The regions (drawing.py keys) the reader's owed decisions can take: shores for a dike,
    free territories for a marker, an army's destinations, the pochtecas' territories, the
    lake zones of an attack or lake battle, the territory of a land battle."""
    found: list[str] = []
    for decision in (view.get("me") or {}).get("decisions") or []:
        kind, o = decision.get("kind"), decision.get("options") or {}
        if kind == "dike":
            found += o.get("shores") or []
        elif kind == "place":
            found += o.get("territories") or []
        elif kind == "purchase":
            found += o.get("dikes") or []
        elif kind == "march":
            found += sorted({t for ends in (o.get("moves") or {}).values() for t in ends})
        elif kind == "mission":
            found += [about.get("territory") for about in (o.get("pochtecas") or {}).values()]
        elif kind == "attack":
            found += [f"lake-{zone}" for zone, _ in o.get("targets") or []]
        elif kind in ("join", "fight"):
            found.append(o.get("zone"))
        elif kind in BATTLE_HEADS:
            found.append(o.get("at"))
    return [str(key) for key in dict.fromkeys(found) if key]


def upto(most: Any) -> list[int]:
    return list(range(0, int(most) + 1))


def _purchase(o: Mapping[str, Any], players: int) -> dict[str, Any]:
    """How many of each counter the Tributes, the stock and each box's room allow."""
    tributes, costs, stock = int(o.get("tributes") or 0), o.get("costs") or {}, o.get("stock") or {}
    limit, chart = int(o.get("box_limit") or 0), o.get("chart") or {}

    def affordable(item: str, left: str) -> int:
        cost = int(costs.get(item) or 0)
        return min(int(stock.get(left) or 0), tributes // cost if cost else 0)

    boxes = []
    for box in BOXES:
        room = max(0, limit - sum(chart.get(box) or [0, 0]))
        boxes.append((box, upto(min(room, affordable("warrior", "warriors"))),
                      upto(min(room, affordable("jaguar", "jaguars")))))
    general = int(costs.get("general") or 0)
    return {"boxes": boxes,
            "generals": list(o.get("generals") or []) if general and tributes >= general else [],
            "pochteca_counts": upto(affordable("pochteca", "pochtecas")),
            "boat_counts": upto(affordable("boat", "boats")),
            "dikes": [(key, place_label(key, players)) for key in o.get("dikes") or []]
            if tributes >= int(costs.get("dike") or 0) else []}


def plays(playable: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The card plays offered: ("chalchiuhtlicue 2", "Chalchiuhtlicue on lake zone 2")."""
    found = []
    for card, targets in sorted(playable.items()):
        for target in targets or [""]:
            found.append((f"{card} {target}".strip(),
                          card_name(card) + (f" on lake zone {target}" if target else "")))
    return found


def deal_choices(view: Mapping[str, Any], deal: Mapping[str, Any]) -> dict[str, Any]:
    """The deal part of a form, from the decision's `deal` options (engine/azteca/deals.py
    deal_choices): what an offer may give (Tributes up to those held, cards from the hand,
    leave to use one's boats) and ask (Tributes up to the most another seat holds now, since an
    acceptance needs them; any card of the edition, since hands are secret; boats), the open
    offers one may accept, decline (any made to the reader) or withdraw, and boats to lend."""
    options = view.get("options") or {}
    me = (view.get("me") or {}).get("seat")
    big_deal = options.get("big_deal") == "on"
    others = [int(seat.get("tributes") or 0) for seat in view.get("seats") or [] if seat.get("seat") != me]
    zones = [(str(zone), f"lake zone {zone}") for zone in deal.get("zones") or []]
    zones += [("all", "every lake zone")] if zones else []
    offers = {(o.get("from"), o.get("to"), o.get("number")): o for o in deal.get("offers") or []}

    def answers(verb: str, pairs: Any, mine: bool) -> list[dict[str, Any]]:
        found = []
        for seat, number in pairs:
            offer = offers.get((me, seat, number) if mine else (seat, me, number)) or {}
            found.append({"value": f"{verb} {seat} {number}", "verb": verb, "seat": seat, "number": number,
                          "give": offer.get("give", ""), "take": offer.get("take", "")})
        return found

    return {"seats": list(deal.get("seats") or []), "open_left": int(deal.get("open_left") or 0),
            "give_tributes": upto(deal.get("tributes") or 0) if big_deal else [],
            "give_cards": [(card, card_name(card)) for card in deal.get("cards") or []],
            "take_tributes": upto(max(others, default=0)) if big_deal else [],
            "take_cards": [(key, name) for key, name, *_ in sorted(card_list(), key=lambda card: card[1])]
            if big_deal else [],
            "zones": zones,
            "answers": [*answers("accept", deal.get("accept") or [], False),
                        *answers("decline", [[o.get("from"), o.get("number")] for o in deal.get("offers") or []
                                             if o.get("to") == me], False),
                        *answers("withdraw", deal.get("withdraw") or [], True)]}


# ---- the order a posted form stands for ---------------------------------------------------------

def order_text(form: Any) -> str:
    """The order text a submitted decision form (or the page's free text, kind "text") stands
    for, with the card play chosen beside it; OrderError when a field is missing or malformed."""
    kind = str(form.get("kind") or "")
    if kind == "text":
        return str(form.get("orders") or "")
    if kind not in _ORDERS:
        raise OrderError("unknown kind of form")
    riders = deal_lines(form)
    play = str(form.get("play") or "")
    if play and not _PLAY.fullmatch(play):
        raise OrderError("play: a card as its orders name it, and its target")
    riders += [f"play {play}"] if play else []
    if form.get("without_answer"):  # the deal (and card) alone; the decision is still owed
        if not riders:
            raise OrderError("choose a deal to send, or send your answer")
        return "\n".join(riders)
    typed = str(form.get("orders") or "").strip() if kind in TEXT_KINDS else ""
    return "\n".join([typed or _ORDERS[kind](form), *riders])


def _value(form: Any, name: str, shape: re.Pattern[str], missing: str | None = None) -> str:
    """A field's value checked against its shape; "" when empty and `missing` is None."""
    value = str(form.get(name) or "")
    if not value:
        if missing:
            raise OrderError(missing)
        return ""
    if not shape.fullmatch(value):
        raise OrderError(f"{name}: not one of the choices offered")
    return value


def _count(form: Any, name: str) -> int:
    return int(_value(form, name, _NUMBER) or 0)


def _values(form: Any, name: str, shape: re.Pattern[str]) -> list[str]:
    values = [str(value) for value in form.getlist(name)]
    if len(values) > 12 or not all(shape.fullmatch(value) for value in values):
        raise OrderError(f"{name}: not one of the choices offered")
    return values


def deal_lines(form: Any) -> list[str]:
    """The deals chosen in a form's deal part, each as a mail writes it (deal_orders.py)."""
    lines = []
    to, give, take = _value(form, "deal-to", _SEAT), _terms(form, "give"), _terms(form, "take")
    if to:
        if not give and not take:
            raise OrderError("offer: choose what you give or what you ask in return")
        lines.append(deal_text(DealOffer(to, give, take)))
    elif give or take:
        raise OrderError("offer: choose the player you make it to")
    answer = _value(form, "deal-answer", _DEAL_ANSWER)
    if answer:
        verb, seat, number = answer.split()
        lines.append(deal_text(DealAnswer(verb, seat, int(number))))
    lender, zones = _value(form, "lend-to", _SEAT), _zones(form, "lend-boats")
    if lender:
        if not zones:
            raise OrderError("lend: tick the lake zones where the player may use your boats")
        lines.append(deal_text(Lend(lender, zones)))
    elif zones:
        raise OrderError("lend: choose the player you lend your boats to")
    return lines


def _zones(form: Any, name: str) -> tuple[int, ...]:
    zones = _values(form, name, _ZONE)
    return (ALL_ZONES,) if "all" in zones else tuple(sorted(int(zone) for zone in zones))


def _terms(form: Any, side: str) -> Terms:
    """One side of an offer from the fields give-tributes, give-card, give-boats (or take-...)."""
    return Terms(_count(form, f"{side}-tributes"), tuple(sorted(_values(form, f"{side}-card", _CARD))),
                 _zones(form, f"{side}-boats"))


def _counts(form: Any, boxes: tuple[str, ...] = BOXES) -> list[str]:
    """'A 3w 1j' for each box given counters, from the fields A-w, A-j, ..."""
    items = []
    for box in boxes:
        warriors, jaguars = _count(form, f"{box}-w"), _count(form, f"{box}-j")
        counts = " ".join(f"{n}{letter}" for n, letter in ((warriors, "w"), (jaguars, "j")) if n)
        if counts:
            items.append(f"{box} {counts}")
    return items


def _dike(form: Any) -> str:
    return "dike " + _value(form, "shore", _WORD, "choose the shore your dike joins")


def _army(form: Any) -> str:
    items = _counts(form)
    if not items:
        raise OrderError("spread your warriors and Jaguar knights over the boxes")
    return "army " + ", ".join(items)


def _place(form: Any) -> str:
    return "place " + _value(form, "territory", _WORD, "choose the territory for your population marker")


def _cards(form: Any) -> str:
    discard = _values(form, "discard", _WORD)
    return f"discard {' '.join(discard)}" if discard else "keep"


def _purchase_text(form: Any) -> str:
    items = _counts(form)
    items += [f"general {letter}" for letter in _values(form, "general", re.compile("[ABC]"))]
    items += [f"{item} {n}" for item in ("pochteca", "boat") if (n := _count(form, item))]
    items += [f"dike {shore}" for shore in _values(form, "dike", _WORD)]
    return "buy " + (", ".join(items) if items else "nothing")


def _look(form: Any) -> str:
    lots = _values(form, "lot", _NUMBER)
    if len(set(lots)) != 2:
        raise OrderError("tick the two slave-market cards you look at")
    return "look " + " ".join(lots)


def _bid(form: Any) -> str:
    lot = _value(form, "lot", _NUMBER)
    if not lot:
        return "bid none"
    return f"bid {lot} {_count(form, 'tributes')}"


def _send(form: Any) -> str:
    items = []
    for letter in POCHTECAS:
        where = _value(form, f"pochteca-{letter}", _WORD)
        if where:
            items.append(f"{letter} {where}")
    for zone in range(1, 10):
        boats = _count(form, f"boats-{zone}")
        if boats:
            items.append(f"{boats}B{zone}")
    return "send " + (", ".join(items) if items else "nothing")


def _mission(form: Any) -> str:
    items = [f"{letter} {mission}" for letter in POCHTECAS
             if (mission := _value(form, f"mission-{letter}", _MISSION))]
    return "mission " + (", ".join(items) if items else "none")


def _attack(form: Any) -> str:
    return "attack " + (_value(form, "target", _TARGET) or "none")


def _join(form: Any) -> str:
    side = _value(form, "side", _WORD, "choose a side: attacker, defender or neutral")
    return f"join {side}"


def _fight(form: Any) -> str:
    action = str(form.get("action") or "")
    if action not in ("continue", "stop"):
        raise OrderError("continue the lake battle or stop it")
    return action


def _plan(form: Any) -> str:
    items = []
    intercept = _values(form, "intercept", re.compile("[ABC]"))
    if intercept:
        items.append("intercept " + " ".join(intercept))
    consent = _value(form, "consent", _WORD)
    if consent == "listed":
        items.append("allow " + (" ".join(_values(form, "allow", _WORD)) or "none"))
    elif consent:
        raise OrderError("consent: everybody, or only the players ticked")
    for field, shape in (("retreat", _NUMBER), ("reserve", _NUMBER), ("losses", _WORD), ("cousin", _WORD),
                         ("promote", _WORD)):
        value = _value(form, field, shape)
        if value:
            items.append(f"{field} {value}")
    return "plan " + (", ".join(items) if items else "none")


def _march(form: Any) -> str:
    if form.get("action") == "pass":
        return "pass"
    army = _value(form, "army", re.compile("[ABC]"), "choose the army that moves, or pass")
    to = _value(form, "to", _WORD, "choose where the army goes")
    move = f"move {army} {to}" + (" raid" if form.get("raid") == "yes" else "")
    reorganise = " ".join(str(form.get("reorganise") or "").split())
    if reorganise and not _REORGANISE.fullmatch(reorganise):
        raise OrderError("reorganise: boxes and counters, as in 'A 2w 1j, R 1w'")
    return f"reorganise {reorganise}\n{move}" if reorganise else move


def _battle(kind: str) -> Any:
    def answer(form: Any) -> str:
        value = _value(form, "answer", _ANSWER, "choose your answer")
        if value.split()[0] != BATTLE_HEADS[kind]:
            raise OrderError("answer: not one of the choices offered")
        return value
    return answer


def _offer(kind: str) -> Any:
    def offer(form: Any) -> str:
        return f"{OFFERS[kind]} {_count(form, 'points')}"
    return offer


_ORDERS = {"dike": _dike, "army": _army, "place": _place, "cards": _cards, "purchase": _purchase_text,
           "look": _look, "bid": _bid, "rebid": _bid, "send": _send, "mission": _mission, "attack": _attack,
           "join": _join, "fight": _fight, "plan": _plan, "march": _march,
           **{kind: _battle(kind) for kind in BATTLE_HEADS}, **{kind: _offer(kind) for kind in OFFERS}}
