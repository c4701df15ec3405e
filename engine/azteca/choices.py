"""What a seat may choose now (its private decision options) and the check of an order
against them: every rule that makes an order illegal lives here, before anything changes."""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from engine.azteca.orders import (BOXES, EXPEDITION, POCHTECAS, Army, Attack, Bid, Buy, Dike, Discard, Look, Missions,
                                  Offer, Order, Place, Send)
from engine.azteca.war import WAR_KINDS
from engine.core import IllegalOrderError

if TYPE_CHECKING:
    from engine.azteca.state import AztecaState

LOOKS = 2  # 11.0: "each player in turn looks at 2 cards of his choice"


def free_dikes(state: "AztecaState") -> list[str]:
    """13.3: the junctions (shores of Tenochtitlan) that take no dike yet."""
    taken = set(state.dikes)
    return sorted({shore for pair in state.geo.dike_links() for shore in pair
                   if shore != state.geo.capital("aztecs").key} - taken)


def stock(state: "AztecaState", s: int) -> dict[str, int]:
    """Counters seat s may still buy: "as much as he desires so long as Tributes and counters remain"."""
    person, counters = state.people[s], state.edition.counters
    aztecs = state.seats[s] == "aztecs"
    return {"warriors": counters["warriors"] - person.on_chart(0),
            "jaguars": counters["jaguars"] - person.on_chart(1),
            "pochtecas": counters["pochtecas"] - state.pochteca_stock(s),
            "boats": counters["boats"] - sum(person.boats.values()),
            "dikes": min(counters["dikes"] - len(state.dikes), len(free_dikes(state))) if aztecs else 0}


def legal_choices(state: "AztecaState", s: int) -> dict[str, Any]:
    kind, person, edition = state.owed[s], state.people[s], state.edition
    if kind in WAR_KINDS:
        return state.war_choices(s)
    if kind == "dike":
        return {"shores": free_dikes(state)}
    if kind == "army":
        return {"warriors": edition.counters["warriors"], "jaguars": edition.counters["jaguars"],
                "boxes": list(BOXES), "box_limit": edition.box_limit}
    if kind == "place":
        return {"marker": person.marker, "territories": state.allowed_markers(s)}
    if kind == "cards":
        return {"hand": sorted(person.hand)}
    if kind == "purchase":
        return {"tributes": person.tributes, "costs": dict(edition.costs), "stock": stock(state, s),
                "chart": {box: list(counts) for box, counts in person.chart.items()},
                "box_limit": edition.box_limit,
                "generals": sorted(g for g, where in person.generals.items() if where is None),
                "dikes": free_dikes(state) if state.seats[s] == "aztecs" else []}
    if kind == "look":
        return {"lots": list(range(1, len(state.market) + 1)), "look": LOOKS}
    if kind == "bid":
        return {"lots": list(range(1, len(state.market) + 1)), "tributes": person.tributes}
    if kind == "rebid":
        return {"lot": state.tied_lot(s), "tributes": person.tributes}
    if kind in ("urn", "tezcatlipoca"):
        return {"sacrifice": person.sacrifice}
    if kind == "send":
        return {"pochtecas": list(POCHTECAS[:person.pochtecas]), "destinations": state.destinations(s),
                "boats": sum(person.boats.values()), "zones": sorted(lake.number for lake in state.geo.lakes())}
    if kind == "mission":
        return {"pochtecas": state.mission_choices(s), "tributes": person.tributes,
                "prices": {mission: price for mission, (price, _) in state.mission_terms().items()},
                "free": state.boon(s, "free-mission"),
                "assimilations": state.assimilation_room(s)}
    if kind == "attack":
        return {"targets": [[zone, seat] for zone, seat in state.lake_targets(s)]}
    if kind == "join":
        return {"zone": state.lake_zone, "sides": ["attacker", "defender", "neutral"],
                "attacker": state.seats[_role(state, "attacker")], "defender": state.seats[_role(state, "defender")]}
    if kind == "fight":
        return {"zone": state.lake_zone, "boats": dict(state.lake_fight.boats)}
    raise AssertionError(kind)


def _role(state: "AztecaState", role: str) -> int:
    return next(s for s, side in state.lake_battle_sides.items() if side == role)


def check(state: "AztecaState", s: int, kind: str, order: Order) -> None:
    """Raise IllegalOrderError unless seat s may give this order for the decision it owes."""
    if kind in WAR_KINDS:
        state.check_war(s, order)
        return
    options = legal_choices(state, s)
    if isinstance(order, Dike):
        _dike(order.shore, options["shores"])
    elif isinstance(order, Army):
        _army(state, order, options)
    elif isinstance(order, Place) and order.territory not in options["territories"]:
        raise IllegalOrderError(f"a population marker may go on {', '.join(options['territories'])}, "
                                f"not {order.territory}")
    elif isinstance(order, Discard):
        missing = Counter(order.cards) - Counter(options["hand"])
        if missing:
            raise IllegalOrderError(f"you hold no {', '.join(sorted(missing))} to discard "
                                    f"(your hand: {', '.join(options['hand']) or 'empty'})")
    elif isinstance(order, Buy):
        _buy(state, s, order, options)
    elif isinstance(order, Look):
        if len(set(order.lots)) != LOOKS or not set(order.lots) <= set(options["lots"]):
            raise IllegalOrderError(f"look at {LOOKS} different cards among lots "
                                    f"{', '.join(map(str, options['lots']))}")
    elif isinstance(order, Bid):
        _bid(kind, order, options)
    elif isinstance(order, Send):
        _send(order, options)
    elif isinstance(order, Missions):
        _missions(order, options)
    elif isinstance(order, Attack) and order.zone is not None and [order.zone, order.seat] not in options["targets"]:
        raise IllegalOrderError(f"you may attack {_targets(options['targets'])}, not {order.seat} in zone {order.zone}")
    elif isinstance(order, Offer):
        god = "quetzalcoatl" if kind == "urn" else "tezcatlipoca"
        if order.god != god:
            raise IllegalOrderError(f"the game asks for your offer to {god.capitalize()} now")
        if order.points > options["sacrifice"]:
            raise IllegalOrderError(f"you hold {options['sacrifice']} Sacrifice points, not {order.points}")


def _dike(shore: str, free: list[str]) -> None:
    if shore not in free:
        raise IllegalOrderError(f"a dike may join Tenochtitlan to {', '.join(free) or 'no shore now'}, not {shore}")


def _army(state: "AztecaState", order: Army, options: dict[str, Any]) -> None:
    """5.0: all the warriors and Jaguar knights, at most 4 counters a box."""
    warriors = sum(w for _, w, _ in order.boxes)
    jaguars = sum(j for _, _, j in order.boxes)
    if (warriors, jaguars) != (options["warriors"], options["jaguars"]):
        raise IllegalOrderError(f"place all {options['warriors']} warriors and {options['jaguars']} Jaguar "
                                f"knights (you placed {warriors} and {jaguars})")
    _box_limits(order.boxes, {box: [0, 0] for box in BOXES}, options["box_limit"])


def _box_limits(boxes: tuple[tuple[str, int, int], ...], chart: dict[str, list[int]], limit: int) -> None:
    for box, warriors, jaguars in boxes:
        if sum(chart[box]) + warriors + jaguars > limit:
            raise IllegalOrderError(f"box {box} would hold {sum(chart[box]) + warriors + jaguars} counters; "
                                    f"a box holds at most {limit}")


def _buy(state: "AztecaState", s: int, order: Buy, options: dict[str, Any]) -> None:
    """10.0-10.2: Tributes and counters left, 4 counters a box, a general only if one was
    killed (its army needs troops), dikes only for the Aztecs on a free junction."""
    if order.dikes and state.seats[s] != "aztecs":
        raise IllegalOrderError("only the Aztec player can buy dikes")
    cost = state.purchase_cost(order)
    if cost > options["tributes"]:
        raise IllegalOrderError(f"that costs {cost} Tributes; you have {options['tributes']}")
    left = options["stock"]
    wanted = {"warriors": sum(w for _, w, _ in order.boxes), "jaguars": sum(j for _, _, j in order.boxes),
              "pochtecas": order.pochtecas, "boats": order.boats, "dikes": len(order.dikes)}
    for what, count in wanted.items():
        if count > left[what]:
            raise IllegalOrderError(f"only {left[what]} {what} are left to buy, not {count}")
    for letter in order.generals:
        if letter not in options["generals"]:
            raise IllegalOrderError(f"general {letter} is alive: a new general only replaces a killed one")
    person = state.people[s]
    for box, _, _ in order.boxes:
        if box != "R" and person.generals.get(box) is None and box not in order.generals:
            raise IllegalOrderError(f"army {box} has no general: buy general {box} to raise it")
    for letter in order.generals:
        if not any(box == letter for box, _, _ in order.boxes):
            raise IllegalOrderError(f"general {letter} needs troops: place counters in box {letter}")
    _box_limits(order.boxes, options["chart"], options["box_limit"])
    for shore in order.dikes:
        _dike(shore, options["dikes"])


def _bid(kind: str, order: Bid, options: dict[str, Any]) -> None:
    if order.lot is None:
        return
    if kind == "rebid" and order.lot != options["lot"]:
        raise IllegalOrderError(f"the re-bid is for lot {options['lot']} only")
    if kind == "bid" and order.lot not in options["lots"]:
        raise IllegalOrderError(f"the lots are {', '.join(map(str, options['lots']))}")
    if order.tributes > options["tributes"]:
        raise IllegalOrderError(f"you have {options['tributes']} Tributes, not {order.tributes}")


def _send(order: Send, options: dict[str, Any]) -> None:
    """12.0: pochtecas held, each to a destination allowed, "A player cannot send several
    Pochtecas to the same territory (except in Expeditions)"; 13.0: "players must determine the
    position of all their boats" in the lake zones."""
    for letter, where in order.pochtecas:
        if letter not in options["pochtecas"]:
            raise IllegalOrderError(f"you have pochtecas {', '.join(options['pochtecas']) or 'none'} to send, not {letter}")
        if where != EXPEDITION and where not in options["destinations"]:
            raise IllegalOrderError(f"a pochteca cannot go to {where}: not a territory in play, another "
                                    f"player's capital or a territory where an enemy army stands")
    sent = [where for _, where in order.pochtecas if where != EXPEDITION]
    if len(sent) != len(set(sent)):
        raise IllegalOrderError("two of your pochtecas cannot go to the same territory (except on expeditions)")
    for zone, _ in order.boats:
        if zone not in options["zones"]:
            raise IllegalOrderError(f"the lake zones are {', '.join(map(str, options['zones']))}, not {zone}")
    placed = sum(count for _, count in order.boats)
    if placed != options["boats"]:
        raise IllegalOrderError(f"place all your {options['boats']} boats in lake zones (you placed {placed})")


def _missions(order: Missions, options: dict[str, Any]) -> None:
    """12.0: each pochteca a mission its territory allows, paid from the Tributes held; at most
    5 assimilated Cities."""
    pochtecas = options["pochtecas"]
    for letter, mission in order.missions:
        if letter not in pochtecas:
            raise IllegalOrderError(f"you have no pochteca {letter} on a mission now")
        if mission not in pochtecas[letter]["missions"]:
            raise IllegalOrderError(f"pochteca {letter} in {pochtecas[letter]['territory']} may do "
                                    f"{', '.join(pochtecas[letter]['missions'])}, not {mission}")
    prices = sorted((options["prices"][mission] for _, mission in order.missions), reverse=True)
    cost = sum(prices[options["free"]:])  # Yacatecuhtli: the dearest missions cost nothing
    if cost > options["tributes"]:
        raise IllegalOrderError(f"those missions cost {cost} Tributes; you have {options['tributes']}")
    if sum(mission == "assimilation" for _, mission in order.missions) > options["assimilations"]:
        raise IllegalOrderError(f"you may assimilate {options['assimilations']} more Cities (at most 5 in all)")


def _targets(targets: list[list[Any]]) -> str:
    return ", ".join(f"{seat} in zone {zone}" for zone, seat in targets) or "nobody"
