"""What one seat (or a spectator) may see of a game of Azteca.

Built field by field from public facts plus the reader's own secrets, never by filtering a
full dump.  Secret to their own seat: the organisation chart, the hand of Azteca cards, the
Sacrifice points held and offered to Quetzalcoatl, a drawn population marker and the value of
the markers it placed face down, the slave-market cards it looked at and won, the boats' zones it
wrote on its phase-5 sheet (until phase 6 places them), and any secret answer (chart, discards,
sheet, bid, side in a lake battle, offer) until every seat asked has answered, and the cards it
gave to play later (until they are played).  Never shown: the
order of any deck, the slave-market cards nobody turned over, the urns' contents (the
verification urn's only when it is opened).  Public: Tributes (announced aloud, 9.0), hand
sizes, counters bought, generals, boats, pochtecas and dikes on the board, cities, revealed
markers, bids once revealed, cards played and each seat's last card played, pochtecas' destinations once revealed, missions and their dice, boats
once placed, lake battles and lake control, the gods' steps and the Anger cards played since the last shuffle.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.azteca.state import AztecaState


def build_view(state: "AztecaState", reader: int | None) -> dict[str, Any]:
    view: dict[str, Any] = {
        "game": "azteca",
        "options": dict(state.setup.options),
        "edition": state.edition.name,
        "round": state.round,
        "phase": state.phase,
        "players": state.n,
        "tlatoani": state.seats[state.first],
        "seats": [_seat(state, s) for s in range(state.n)],
        "cities": {territory: state.seats[s] for territory, s in sorted(state.owner.items())},
        "assimilated": sorted(state.assimilated),
        "dikes": list(state.dikes),
        "lake_control": {lake: None if s is None else state.seats[s] for lake, s in state.lake_control.items()},
        "markers": _markers(state),
        "deck": len(state.deck),
        "discards": len(state.discards),
        "market": {"lots": len(state.market), "tied": {str(lot): [state.seats[s] for s in seats]
                                                       for lot, seats in state.tied.items()}},
        "gods": {"quetzalcoatl": state.quetzalcoatl, "tezcatlipoca": state.tezcatlipoca,
                 "points_per_step": state.points_per_step(),
                 "verification_due": state.verification_due(),
                 "anger_played": list(state.anger_played), "anger_left": len(state.anger)},
        "war": _war(state),
        "decisions": [d.public() for d in state.decisions(options=False)],
        "scores": state.scores_by_round(),
        "result": state.final.to_json() if state.final else None,
        "events": state.events_for(reader),
    }
    if reader is not None:
        view["me"] = _me(state, reader)
    return view


def _seat(state: "AztecaState", s: int) -> dict[str, Any]:
    person = state.people[s]
    return {"seat": state.seats[s], "name": state.setup.names[s], "capital": state.capital(s),
            "tributes": person.tributes, "hand": len(person.hand), "last_card": person.last_card,
            "generals": dict(person.generals), "boats": dict(person.boats), "pochtecas": person.pochtecas,
            "envoys": dict(state.envoys.get(s, {})), "spies": dict(state.spies.get(s, {})),
            "cities": state.cities(s)}


def _war(state: "AztecaState") -> dict[str, Any]:
    """The Flower War's public side: markers left, armies that moved, the battle under way (an
    army's counters stay on its owner's chart, face down: 14.1)."""
    war = state.war or {}
    return {"markers_left": len(state.war_markers),
            "moved": sorted(f"{state.seats[s]} {letter}" for s, letter in state.moved),
            "battle": war.get("at_battle") if war.get("battle") is not None else None}


def _markers(state: "AztecaState") -> dict[str, Any]:
    if state.markers_revealed:
        return {territory: value for territory, value in sorted(state.markers.items())}
    return {territory: None for territory in sorted(state.markers)}  # face down: where, not what


def _me(state: "AztecaState", s: int) -> dict[str, Any]:
    person = state.people[s]
    mine = {"seat": state.seats[s], "sacrifice": person.sacrifice, "urn": person.urn,
            "hand": sorted(person.hand), "chart": {box: list(counts) for box, counts in person.chart.items()},
            "looked": {str(lot): value for lot, value in person.looked.items()},
            "marker": person.marker, "plays": [state.order_text(play) for play in person.plays],
            "boat_plan": {str(zone): count for zone, count in sorted(person.boat_plan.items())},
            "answer": None if person.answer is None else state.order_text(person.answer),
            "plan": state.order_text(state.plans[s]) if s in state.plans else None}
    if not state.markers_revealed:
        mine["my_markers"] = {t: state.markers[t] for t, by in sorted(state.placed_by.items()) if by == s}
    # What the seat owes now, with its private options: a list, as every game's view has it.
    mine["decisions"] = [state.decision_of(s).private()] if s in state.owed else []
    return mine
