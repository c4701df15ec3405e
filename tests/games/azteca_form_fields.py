"""An Azteca order as the fields of the game page's decision form (templates/games/azteca/game/
_decisions.html): what a person ticks and picks to send it, and what the form offers for each
field.  The form tests check that every value used is one the form offers; the browser test
fills the same fields."""
from __future__ import annotations

from typing import Any

from engine.azteca.deal_orders import ALL_ZONES, DealAnswer, DealOffer, Lend, Terms
from engine.azteca.orders import (Army, Attack, Bid, Buy, Dike, Discard, Fight, Join, Look, Missions, Offer, Place,
                                  Send)
from engine.azteca.war_orders import Answer, Move, Plan, war_text


def _counts(boxes: Any) -> dict[str, str]:
    fields = {}
    for box, warriors, jaguars in boxes:
        fields[f"{box}-w"], fields[f"{box}-j"] = str(warriors), str(jaguars)
    return fields


def _zones(zones: tuple[int, ...]) -> list[str]:
    return ["all"] if ALL_ZONES in zones else [str(zone) for zone in zones]


def _terms(side: str, terms: Terms) -> dict[str, Any]:
    return {**({f"{side}-tributes": str(terms.tributes)} if terms.tributes else {}),
            f"{side}-card": list(terms.cards), f"{side}-boats": _zones(terms.boats)}


def deal_fields(order: Any) -> dict[str, Any]:
    """The fields of a form's deal part (18.0's options) that send a deal order."""
    if isinstance(order, DealOffer):
        return {"deal-to": order.seat, **_terms("give", order.give), **_terms("take", order.take)}
    if isinstance(order, DealAnswer):
        return {"deal-answer": f"{order.verb} {order.seat} {order.number}"}
    if isinstance(order, Lend):
        return {"lend-to": order.seat, "lend-boats": _zones(order.zones)}
    raise TypeError(order)


def form_fields(order: Any) -> dict[str, Any] | None:
    """The posted fields (a list for a group of boxes) that send `order`; None: an order the
    form sends only with another (a reorganisation goes with its move)."""
    if isinstance(order, Dike):
        return {"shore": order.shore}
    if isinstance(order, Army):
        return _counts(order.boxes)
    if isinstance(order, Place):
        return {"territory": order.territory}
    if isinstance(order, Discard):
        return {"discard": list(order.cards)}
    if isinstance(order, Buy):
        return {**_counts(order.boxes), "general": list(order.generals), "pochteca": str(order.pochtecas),
                "boat": str(order.boats), "dike": list(order.dikes)}
    if isinstance(order, Look):
        return {"lot": [str(lot) for lot in order.lots]}
    if isinstance(order, Bid):
        return {"lot": "" if order.lot is None else str(order.lot), "tributes": str(order.tributes)}
    if isinstance(order, Send):
        return {**{f"pochteca-{letter}": where for letter, where in order.pochtecas},
                **{f"boats-{zone}": str(count) for zone, count in order.boats}}
    if isinstance(order, Missions):
        return {f"mission-{letter}": mission for letter, mission in order.missions}
    if isinstance(order, Attack):
        return {"target": "" if order.zone is None else f"{order.zone} {order.seat}"}
    if isinstance(order, Join):
        return {"side": order.side}
    if isinstance(order, Fight):
        return {"action": "continue" if order.on else "stop"}
    if isinstance(order, Plan):
        fields: dict[str, Any] = {"intercept": list(order.intercept)}
        if order.allow is not None:
            fields.update(consent="listed", allow=list(order.allow))
        for name, value in (("retreat", order.retreat_below), ("reserve", order.reserve), ("losses", order.losses),
                            ("cousin", order.cousin)):
            if value is not None:
                fields[name] = str(value)
        if order.promote is not None:
            fields["promote"] = "yes" if order.promote else "no"
        return fields
    if isinstance(order, Move):
        if order.army is None:
            return {"action": "pass"}
        return {"army": order.army, "to": order.route[-1], **({"raid": "yes"} if order.raid else {})}
    if isinstance(order, Answer):
        return {"answer": war_text(order)}
    if isinstance(order, Offer):
        return {"points": str(order.points)}
    return None


def offered(choice: dict[str, Any]) -> dict[str, list[str]]:
    """What the form offers for each field of a decision (pbem/games/azteca/forms.py choices)."""
    kind, o = choice["kind"], choice["o"]

    def pairs(items: Any) -> list[str]:
        return [str(value) for value, _ in items]

    def numbers(values: Any) -> list[str]:
        return [str(n) for n in values]

    found: dict[str, list[str]] = {"play": pairs(choice["play"])}
    deal = choice.get("deal")
    if deal:
        zones = pairs(deal["zones"])
        found.update({"deal-to": list(deal["seats"]) if deal["open_left"] else [],
                      "give-tributes": numbers(deal["give_tributes"]), "give-card": pairs(deal["give_cards"]),
                      "give-boats": zones, "take-tributes": numbers(deal["take_tributes"]),
                      "take-card": pairs(deal["take_cards"]), "take-boats": zones,
                      "deal-answer": [answer["value"] for answer in deal["answers"]],
                      "lend-to": list(deal["seats"]) if zones else [], "lend-boats": zones})
    for box, warriors, jaguars in choice.get("boxes") or []:
        found[f"{box}-w"], found[f"{box}-j"] = numbers(warriors), numbers(jaguars)
    if kind == "dike":
        found["shore"] = pairs(choice["shores"])
    elif kind == "place":
        found["territory"] = pairs(choice["territories"])
    elif kind == "cards":
        found["discard"] = pairs(choice["hand"])
    elif kind == "purchase":
        found.update(general=list(choice["generals"]), pochteca=numbers(choice["pochteca_counts"]),
                     boat=numbers(choice["boat_counts"]), dike=pairs(choice["dikes"]))
    elif kind == "look":
        found["lot"] = numbers(o["lots"])
    elif kind in ("bid", "rebid"):
        found["lot"] = ["", *numbers(o["lots"] if kind == "bid" else [o["lot"]])]
        found["tributes"] = numbers(range(0, o["tributes"] + 1))
    elif kind == "send":
        found.update({f"pochteca-{letter}": pairs(places) for letter, places in choice["pochtecas"]})
        found.update({f"boats-{zone}": numbers(counts) for zone, counts in choice["zones"]})
    elif kind == "mission":
        found.update({f"mission-{letter}": missions for letter, _, missions in choice["pochtecas"]})
    elif kind == "attack":
        found["target"] = ["", *pairs(choice["targets"])]
    elif kind == "join":
        found["side"] = list(o["sides"])
    elif kind == "fight":
        found["action"] = ["continue", "stop"]
    elif kind == "plan":
        found.update(intercept=list(o["armies"]), consent=["", "listed"] if o["controls"] else [""],
                     allow=list(o["seats"]) if o["controls"] else [], retreat=numbers(choice["retreat"]),
                     reserve=numbers(choice["reserve"]), losses=["warriors", "jaguars"],
                     cousin=["warrior", "jaguar", "none"], promote=["yes", "no"])
    elif kind == "march":
        found.update(action=["pass"], army=list(choice["armies"]), to=pairs(choice["destinations"]),
                     raid=["yes"] if o["raid"] else [])
    elif kind in ("reserve", "cousin", "losses", "retreat", "promote"):
        found["answer"] = list(o["orders"])
    elif kind in ("urn", "tezcatlipoca"):
        found["points"] = numbers(choice["points"])
    return found
