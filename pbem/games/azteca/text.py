"""Azteca in plain text, from one reader's view (engine/azteca/views.py): the answers to the mail
commands BOARD (everything public) and HAND (the reader's own secrets), and the choices a
"your turn" mail lists.  Nothing here reads the state: a view holds only what its reader may
know, so these texts can hold nothing more."""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.azteca.sentences import Words, chart_text, plural
from pbem.games.reporting import joined

QUETZALCOATL_STEPS, TEZCATLIPOCA_STEPS = 5, 4  # 15.1, 15.3
PHASE_NAMES = {"setup": "setup", "cards": "1, Azteca cards", "tribute": "2, tribute", "purchase": "3, purchases",
               "market": "4, the slave market", "pochtecas": "5, pochteca missions", "lake": "6, lake domination",
               "war": "7, the Flower War", "judgement": "8, the judgement of the gods"}


def who(names: Mapping[str, str], seat: Any) -> str:
    """"Ana (toltecs)", or the seat alone when the player is named after it."""
    name = names.get(str(seat))
    return f"{name} ({seat})" if name and name != seat else str(seat)


def _list(items: list[str]) -> str:
    return joined(items) if items else "none"


def _boats(boats: Mapping[str, int], words: Words) -> str:
    where = [f"{n} on zone {words.geo.region(place).number}" if place.startswith("lake") else f"{n} in harbour"
             for place, n in boats.items() if n]
    return _list(where)


def _seat_lines(seat: Mapping[str, Any], names: Mapping[str, str], words: Words, capital_of: str) -> list[str]:
    generals = [f"{letter} {'killed' if where is None else 'at ' + words.place(where)}"
                for letter, where in (seat.get("generals") or {}).items()]
    cities = [words.place(city) for city in seat.get("cities") or [] if city != capital_of]
    facts = [plural(seat.get("tributes", 0), "Tribute"), plural(seat.get("hand", 0), "Azteca card") + " in hand"]
    if seat.get("last_card"):
        facts.append(f"last played {words.card_name(seat['last_card'])}")
    lines = [f"{who(names, seat.get('seat'))}, capital {words.place(capital_of)}: " + ", ".join(facts) + ".",
             f"  cities: {_list(cities)}",
             f"  generals: {_list(generals)}",
             f"  boats: {_boats(seat.get('boats') or {}, words)}; pochtecas at home: {seat.get('pochtecas', 0)}"]
    envoys = [f"{letter} {'on an expedition' if to == 'exp' else 'to ' + words.place(to)}"
              for letter, to in (seat.get("envoys") or {}).items()]
    if envoys:
        lines.append(f"  pochtecas sent: {', '.join(envoys)}")
    spies = [f"{letter} in {words.place(to)}" for letter, to in (seat.get("spies") or {}).items()]
    if spies:
        lines.append(f"  pochtecas on espionage: {', '.join(spies)}")
    return lines


def _gods(view: Mapping[str, Any]) -> list[str]:
    gods = view.get("gods") or {}
    due = "opened at the end of this turn" if gods.get("verification_due") else "not opened this turn"
    played = ", ".join(map(str, gods.get("anger_played") or [])) or "none"
    return [f"Quetzalcoatl: {gods.get('quetzalcoatl', 0)} of {QUETZALCOATL_STEPS} steps climbed "
            f"({gods.get('points_per_step')} Sacrifice points a step; the verification urn is {due}).",
            f"Tezcatlipoca: {gods.get('tezcatlipoca', 0)} of {TEZCATLIPOCA_STEPS} steps down; Anger cards played "
            f"since the last shuffle: {played}; {gods.get('anger_left', 0)} left."]


def _markers(view: Mapping[str, Any], words: Words) -> str:
    markers = view.get("markers") or {}
    if not markers:
        return "Population markers: none."
    if all(value is None for value in markers.values()):
        return "Population markers, face down, on: " + ", ".join(words.place(t) for t in markers) + "."
    return "Population markers: " + ", ".join(f"{words.place(t)} {v}" for t, v in markers.items()) + "."


def _phase_facts(view: Mapping[str, Any], names: Mapping[str, str], words: Words) -> list[str]:
    """The slave market's lots and the Flower War's progress, while they run."""
    lines = []
    market = view.get("market") or {}
    if market.get("lots"):
        tied = "; ".join(f"lot {lot} tied between {joined([who(names, s) for s in seats])}"
                         for lot, seats in (market.get("tied") or {}).items())
        lines.append(f"Slave market: {plural(market['lots'], 'lot')} face down" + (f"; {tied}" if tied else "") + ".")
    war = view.get("war") or {}
    if view.get("phase") == "war":
        moved = ", ".join(war.get("moved") or []) or "none"
        battle = f"; a battle in {words.place(war['battle'])}" if war.get("battle") else ""
        lines.append(f"Flower War: {plural(war.get('markers_left', 0), 'movement marker')} left in the bag; "
                     f"armies moved: {moved}{battle}.")
    return lines


def board_text(view: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """Where the game stands, the gods, the valley (cities, markers, dikes, lake control) and
    each people's public holdings."""
    words = Words.of(names, view)
    phase = str(view.get("phase"))
    stage = "the game is over" if phase == "over" else f"phase {PHASE_NAMES.get(phase, phase)}"
    lines = [f"Game turn {view.get('round')}, {stage}; {who(names, view.get('tlatoani'))} holds the Tlatoani card.",
             *_gods(view), _markers(view, words)]
    assimilated = [words.place(t) for t in view.get("assimilated") or []]
    lines.append(f"Assimilated cities: {_list(assimilated)}.")
    lines.append("Dikes from Tenochtitlan to: " + _list([words.place(t) for t in view.get("dikes") or []]) + ".")
    lines.append("Lake control: " + "; ".join(
        f"zone {words.geo.region(zone).number} {who(names, seat) if seat else 'nobody'}"
        for zone, seat in (view.get("lake_control") or {}).items()) + ".")
    lines.append(f"Azteca cards: {view.get('deck', 0)} in the deck, {view.get('discards', 0)} discarded.")
    lines += _phase_facts(view, names, words)
    for seat in view.get("seats") or []:
        lines += _seat_lines(seat, names, words, str(seat.get("capital")))
    return "\n".join(lines)


def _card_line(key: str, words: Words) -> str:
    card = words.card(key)
    return f"  {card.name} ('{key}', phase {card.phase}): {card.text}" if card else f"  {key}"


def hand_text(view: Mapping[str, Any]) -> str:
    """Everything only the reader knows: Azteca cards, organisation chart, Sacrifice points
    held and offered, markers, slave-market cards seen, and answers not yet revealed."""
    me = view.get("me") or {}
    words = Words.of({}, view)
    lines = ["Your Azteca cards:"] + ([_card_line(card, words) for card in me.get("hand") or []] or ["  none"])
    lines.append(f"Your organisation chart: {chart_text(me.get('chart') or {})}.")
    lines.append(f"Your Sacrifice points: {me.get('sacrifice', 0)} held; {me.get('urn', 0)} offered to "
                 f"Quetzalcoatl over the game.")
    if me.get("marker") is not None:
        lines.append(f"The population marker you drew: {me['marker']}.")
    if me.get("my_markers"):
        lines.append("Your population markers, face down: " + ", ".join(
            f"{words.place(t)} {v}" for t, v in me["my_markers"].items()) + ".")
    if me.get("looked"):
        lines.append("Slave-market cards you looked at: " + ", ".join(
            f"lot {lot} {plural(v, 'Sacrifice point')}" for lot, v in me["looked"].items()) + ".")
    if me.get("boat_plan"):
        lines.append("Your sheet's boats, placed in phase 6: " + ", ".join(
            f"{n} on zone {zone}" for zone, n in me["boat_plan"].items()) + ".")
    if me.get("plays"):
        lines.append("Cards you gave to play when their phase comes: " + "; ".join(me["plays"]) + ".")
    if me.get("answer"):
        lines.append(f"Your answer, secret until everyone has answered: {me['answer']}.")
    if me.get("plan"):
        lines.append(f"Your standing orders for this Flower War: {me['plan']}.")
    return "\n".join(lines)


# --- what the reader may do now --------------------------------------------------------------

def _purchase(o: Mapping[str, Any]) -> list[str]:
    costs, stock = o.get("costs") or {}, o.get("stock") or {}
    prices = ", ".join(f"{what} {price}" for what, price in costs.items())
    left = ", ".join(f"{what} {n}" for what, n in stock.items())
    lines = [f"You have {plural(o.get('tributes', 0), 'Tribute')}. Prices: {prices}.",
             f"Counters left to buy: {left}. A box holds at most {o.get('box_limit')} counters; your chart: "
             f"{chart_text(o.get('chart') or {})}."]
    if o.get("generals"):
        lines.append(f"Killed generals you may replace: {', '.join(o['generals'])}.")
    if o.get("dikes"):
        lines.append(f"Free dike junctions: {', '.join(o['dikes'])}.")
    return lines


def _send(o: Mapping[str, Any], words: Words) -> list[str]:
    places = ", ".join(f"{words.geo.region(t).number} {t}" for t in o.get("destinations") or [])
    return [f"Pochtecas to send: {_list(list(o.get('pochtecas') or []))}; each to a territory or 'exp' (an expedition).",
            f"Territories they may go to: {places or 'none'}.",
            f"Boats to place: {o.get('boats', 0)}, as COUNT B ZONE in zones {', '.join(map(str, o.get('zones') or []))}."]


def _missions(o: Mapping[str, Any], words: Words) -> list[str]:
    lines = [f"pochteca {letter} in {words.place(c.get('territory'))}: {', '.join(c.get('missions') or [])}"
             for letter, c in (o.get("pochtecas") or {}).items()]
    prices = ", ".join(f"{mission} {price}" for mission, price in (o.get("prices") or {}).items())
    free = f"; {plural(o['free'], 'mission')} free (Yacatecuhtli)" if o.get("free") else ""
    return lines + [f"Prices in Tributes: {prices}{free}. You have {plural(o.get('tributes', 0), 'Tribute')}; "
                    f"{o.get('assimilations', 0)} more assimilations allowed."]


def _march(o: Mapping[str, Any], words: Words) -> list[str]:
    lines = [f"army {letter} may reach: {', '.join(words.place(t) for t in places) or 'nowhere'}"
             for letter, places in (o.get("moves") or {}).items()]
    if o.get("together"):
        lines.append("Boxes standing together (may be reorganised first): "
                     + "; ".join(" ".join(group) for group in o["together"]) + ".")
    if o.get("raid"):
        lines.append("You hold a Raid card: add 'raid' to the move to play it.")
    return lines


def _choices(kind: str, o: Mapping[str, Any], words: Words) -> list[str]:
    if kind == "dike":
        return [f"Shores: {', '.join(o.get('shores') or [])}."]
    if kind == "army":
        return [f"Spread {plural(o.get('warriors', 0), 'warrior')} and {plural(o.get('jaguars', 0), 'Jaguar knight')} "
                f"over boxes {', '.join(o.get('boxes') or [])}, at most {o.get('box_limit')} counters a box."]
    if kind == "place":
        return [f"Your marker is worth {o.get('marker')}. Free territories: "
                + ", ".join(f"{words.geo.region(t).number} {t}" for t in o.get("territories") or []) + "."]
    if kind == "cards":
        return [f"Your hand: {', '.join(o.get('hand') or []) or 'empty'}; discard any, then it is refilled to 4."]
    if kind == "purchase":
        return _purchase(o)
    if kind == "look":
        return [f"Lots: {', '.join(map(str, o.get('lots') or []))}; look at {o.get('look', 2)} of them."]
    if kind in ("bid", "rebid"):
        lots = f"lot {o['lot']}" if kind == "rebid" else f"lots {', '.join(map(str, o.get('lots') or []))}"
        return [f"Bid on {lots}, up to your {plural(o.get('tributes', 0), 'Tribute')}."]
    if kind == "send":
        return _send(o, words)
    if kind == "mission":
        return _missions(o, words)
    if kind == "attack":
        return ["You may attack: " + (", ".join(f"{seat} in zone {zone}" for zone, seat in o.get("targets") or [])
                                      or "nobody") + "."]
    if kind == "join":
        return [f"{o.get('attacker')} attacks {o.get('defender')} on zone {words.geo.region(str(o.get('zone'))).number}."]
    if kind == "fight":
        return ["Boats left: " + ", ".join(f"{seat} {n}" for seat, n in (o.get("boats") or {}).items()) + "."]
    if kind in ("urn", "tezcatlipoca"):
        return [f"You hold {plural(o.get('sacrifice', 0), 'Sacrifice point')}."]
    if kind == "plan":
        zones = [str(words.geo.region(zone).number) for zone in o.get("controls") or []]
        return [f"Your armies: {', '.join(o.get('armies') or []) or 'none'}; other peoples: "
                f"{', '.join(o.get('seats') or [])}; lake zones you control: {', '.join(zones) or 'none'}."]
    if kind == "march":
        return _march(o, words)
    if o.get("orders"):  # a battle's question: every legal answer is listed
        return [f"In the battle of {words.place(o.get('at'))}, answer one of: " + "; ".join(o["orders"]) + "."]
    return []


def choices_text(view: Mapping[str, Any]) -> str:
    """What the reader may choose now, from the options of the decision it owes (its own
    view's `me.decisions`), and the cards it may play beside it.  "" when nothing is owed."""
    owed = (view.get("me") or {}).get("decisions") or []
    if not owed:
        return ""
    words = Words.of({}, view)
    kind, options = str(owed[0].get("kind")), owed[0].get("options") or {}
    lines = ["Your choices now:"] + [f"  {line}" for line in _choices(kind, options, words)]
    if options.get("play"):
        plays = [" or ".join("'" + f"play {card} {target}".strip() + "'" for target in targets)
                 for card, targets in options["play"].items()]
        lines.append("  Azteca cards you may play with this answer: " + "; ".join(plays) + ".")
    return "\n".join(lines)

