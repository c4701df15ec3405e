"""Azteca's reports: the sections of a game turn's report, of the final report and of the
notice after setup, as the JSON-able context templates/games/azteca/reports/ reads
(docs/reports.md).

A game turn is reported once its Judgement of the gods is over (its one scored milestone,
docs/rules-azteca.md); a notice follows setup, once the population markers are turned face up.
pbem/reports/content.py replays the record to that moment and builds what every game's report
holds; this module adds Azteca's part from the public facts of the reader's view (the gods, the
peoples' holdings, the turn's Tributes and offers to Tezcatlipoca, the result) and the reader's
own secrets from the same view (its cards, chart and Sacrifice points): a view holds nothing of
another seat's secrets, so no report can.
"""
from __future__ import annotations

from typing import Any, Mapping

from engine.core import State
from pbem.games.azteca.sentences import BOX_NAMES, Words, counters
from pbem.games.azteca.text import QUETZALCOATL_STEPS, TEZCATLIPOCA_STEPS
from pbem.games.reporting import Facts, joined, round_events, round_scores

OMITTED = "Some events of this game turn are not listed."
TIE_BREAK = ("most Sacrifice points offered to Quetzalcoatl over the game, then most assimilated cities, "
             "then the richest (Tributes plus the cost of warriors, Jaguar knights and boats)")


def _plural(count: int, one: str) -> str:
    return f"{count} {one if count == 1 else one + 's'}"


def gods(view: Mapping[str, Any]) -> dict[str, Any]:
    """The two tracks and the Anger cards (all public)."""
    shown = view.get("gods") or {}
    return {"quetzalcoatl": shown.get("quetzalcoatl", 0), "quetzalcoatl_steps": QUETZALCOATL_STEPS,
            "tezcatlipoca": shown.get("tezcatlipoca", 0), "tezcatlipoca_steps": TEZCATLIPOCA_STEPS,
            "points_per_step": shown.get("points_per_step"), "verification_due": bool(shown.get("verification_due")),
            "anger_played": list(shown.get("anger_played") or []), "anger_left": shown.get("anger_left", 0)}


def _peoples(view: Mapping[str, Any], facts: Facts, reader: str, turn: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every people's public holdings, in play order, with this turn's offer to Tezcatlipoca."""
    words = Words.of(facts.names, view)
    assimilated = set(view.get("assimilated") or [])
    rows = []
    for seat in view.get("seats") or []:
        name = str(seat.get("seat"))
        cities = [c for c in seat.get("cities") or [] if c != seat.get("capital")]
        armies = [letter for letter, where in (seat.get("generals") or {}).items() if where is not None]
        rows.append({**facts.seat(name), "is_reader": name == reader, "capital": words.place(seat.get("capital")),
                     "tributes": seat.get("tributes", 0), "cities": [words.place(c) for c in cities],
                     "assimilated": sum(c in assimilated for c in cities), "armies": armies,
                     "boats": sum((seat.get("boats") or {}).values()), "hand": seat.get("hand", 0),
                     "offered": (turn.get(name) or {}).get("tezcatlipoca")})
    return rows


def mine(view: Mapping[str, Any]) -> dict[str, Any]:
    """The reader's own secrets: its Azteca cards, organisation chart and Sacrifice points."""
    me = view.get("me") or {}
    words = Words.of({}, view)
    cards = []
    for key in me.get("hand") or []:
        card = words.card(key)
        cards.append({"key": key, "name": card.name if card else key, "phase": card.phase if card else None,
                      "text": card.text if card else ""})
    chart = [{"box": BOX_NAMES[box], "counters": counters(*(list(me.get("chart", {}).get(box) or [0, 0]) + [0, 0])[:2])}
             for box in ("A", "B", "C", "R")]
    return {"cards": cards, "chart": chart, "sacrifice": me.get("sacrifice", 0), "urn": me.get("urn", 0)}


def _events(state: State, view: Mapping[str, Any], number: int, facts: Facts) -> dict[str, Any]:
    events, cut = round_events(view, number, facts.shown)
    return {"events": facts.shown.sentences(events, facts.names, state), "notes": [OMITTED] if cut else []}


def _judgement(view: Mapping[str, Any], number: int) -> dict[str, Any]:
    """This turn's Judgement from its public events: Tezcatlipoca's roll and the verification."""
    found: dict[str, Any] = {"tezcatlipoca": None, "verification": None}
    for event in view.get("events") or []:
        if event.get("round") == number and event.get("type") in found:
            found[str(event["type"])] = dict(event)
    return found


def _headline(number: int, judgement: Mapping[str, Any]) -> str:
    """"Game turn 3: Tezcatlipoca descends a step and Quetzalcoatl climbs 1"."""
    said = []
    roll = judgement.get("tezcatlipoca") or {}
    said.append("Tezcatlipoca is appeased" if roll.get("calm", True) else "Tezcatlipoca descends a step")
    opened = judgement.get("verification")
    if opened:
        said.append(f"Quetzalcoatl climbs {_plural(opened.get('steps', 0), 'step')}")
    return f"Game turn {number}: {joined(said)}"


def _final(state: State, facts: Facts, view: Mapping[str, Any], reader: str) -> dict[str, Any]:
    """The end: the universe destroyed (everyone loses, 15.3), or the ranking by the points each
    offered to Quetzalcoatl, with the tie-breaks' figures (the result's breakdown, public)."""
    result = state.result()
    destroyed = any(part.get("universe") == "destroyed" for part in result.breakdown.values())
    ranking = []
    for seat in result.ranking:
        detail = result.breakdown[seat]
        place = result.places[seat]
        ranking.append({**facts.seat(seat), "is_reader": seat == reader, "place": place,
                        "shared": list(result.places.values()).count(place) > 1, "score": result.scores[seat],
                        "assimilated": detail.get("assimilated", 0), "wealth": detail.get("wealth", 0)})
    return {"destroyed": destroyed, "winner": facts.seat(result.winner) if result.winner else None,
            "reader_won": result.winner == reader, "reader_place": result.places[reader], "ranking": ranking,
            "tie_break": result.tie_break, "tie_break_text": TIE_BREAK}


def _board(state: State, view: Mapping[str, Any], facts: Facts, caption: str) -> dict[str, Any] | None:
    """The valley as the reader sees it (the presentation's board picture)."""
    svg = facts.shown.board_svg(state, view, id_prefix="rb")
    return {"svg": svg, "alt": f"The Valley of Mexico after {caption}", "caption": caption} if svg else None


# --- the reports -------------------------------------------------------------------------

def report_context(state: State, view: Mapping[str, Any], context: dict[str, Any], facts: Facts) -> dict[str, Any]:
    """The report of game turn `context["round"]`, just judged, for its reader: the gods, the
    peoples, the reader's secrets, the valley and the turn's events; the final report adds the
    result."""
    reader, number = context["reader"]["seat"], context["round"]
    over = state.is_over()
    judgement = _judgement(view, number)
    peoples = _peoples(view, facts, reader, round_scores(state, number))
    final = _final(state, facts, view, reader) if over else None
    headline = ("The universe is destroyed" if final and final["destroyed"] else "The final report") if over \
        else _headline(number, judgement)
    return {**context, **_events(state, view, number, facts),
            "round_title": facts.shown.round_title(number), "headline": headline,
            "gods": gods(view), "judgement": judgement, "peoples": peoples,
            "me": next(row for row in peoples if row["is_reader"]),
            "board": _board(state, view, facts, "the judgement of game turn " + str(number)),
            "mine": None if over else mine(view), "final": final}


def notice_context(state: State, view: Mapping[str, Any], context: dict[str, Any], facts: Facts) -> dict[str, Any]:
    """The notice after setup (no PDF): the markers are face up and the first turn begins; the
    valley, the reader's secrets, what happened and what next."""
    number, phase, reader = context["round"], context["phase"], context["reader"]["seat"]
    headline = ("The population markers are turned face up: the game begins" if phase == "setup"
                else f"Game turn {number}: the {phase} phase is over")
    return {**context, **_events(state, view, number, facts), "round_title": facts.shown.round_title(number),
            "headline": headline, "gods": gods(view), "peoples": _peoples(view, facts, reader, {}),
            "mine": mine(view), "board": _board(state, view, facts, "setup" if phase == "setup" else f"the {phase} phase")}


def next_step(view: Mapping[str, Any], expected: dict[str, Any], facts: Facts) -> dict[str, Any]:
    """What the game waits for, with an example order from the reader's own options."""
    owed = (view.get("me") or {}).get("decisions") or []
    order = facts.shown.first_order(owed[0]) if expected.get("yours") and owed else None
    return {**expected, "orders": [order] if order else []}
