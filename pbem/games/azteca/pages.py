"""What Azteca's position template needs (templates/games/azteca/game/_position.html): each
people's public facts in words, the valley's and the gods' state, and the reader's own
secrets (hand, organisation chart, offers, sheet), all from the reader's view
(engine/azteca/views.py); and the choices of its decision forms (pbem/games/azteca/forms.py)."""
from __future__ import annotations

from typing import Any, Mapping

from engine.azteca.orders import BOXES
from pbem.games.azteca import forms
from pbem.games.azteca.cards import card_meaning, card_name

BOX_TITLES = {"A": "army A", "B": "army B", "C": "army C", "R": "the Reserve"}


def page_context(view: Mapping[str, Any]) -> dict[str, Any]:
    players = int(view.get("players") or 4)

    def place(key: Any) -> str:
        return forms.place_label(key, players)

    me = view.get("me") or {}
    gods = view.get("gods") or {}
    war = view.get("war") or {}
    market = view.get("market") or {}
    markers = view.get("markers") or {}
    return {
        "azteca_seats": [_seat(seat, place) for seat in view.get("seats") or []],
        "valley": {
            "tlatoani": view.get("tlatoani"),
            "assimilated": [place(key) for key in view.get("assimilated") or []],
            "dikes": [place(key) for key in view.get("dikes") or []],
            "lakes": [(place(zone), holder) for zone, holder in sorted((view.get("lake_control") or {}).items())],
            "markers": [(place(key), value) for key, value in markers.items()],
            "deck": view.get("deck", 0), "discards": view.get("discards", 0),
            "lots": market.get("lots", 0),
            "tied": [(lot, seats) for lot, seats in sorted((market.get("tied") or {}).items())],
        },
        # Offers to Tezcatlipoca are revealed together (15.2): the last judgement's are public.
        "offers": sorted((seat, scored) for seat, scored in ((view.get("scores") or [{}])[-1] or {}).items()
                         if isinstance(scored, dict)),
        "gods": {"quetzalcoatl": gods.get("quetzalcoatl", 0), "tezcatlipoca": gods.get("tezcatlipoca", 0),
                 "points_per_step": gods.get("points_per_step"), "verification_due": gods.get("verification_due"),
                 "anger_played": list(gods.get("anger_played") or []), "anger_left": gods.get("anger_left", 0)},
        "war": {"markers_left": war.get("markers_left", 0), "moved": list(war.get("moved") or []),
                "battle": place(war["battle"]) if war.get("battle") else None},
        "mine": _mine(me, place) if me else None,
        # Leave to use boats (18.0 Pirogue Express Service) is public: it changes who may cross.
        "loans": [(loan["lender"], loan["borrower"], place(loan["zone"])) for loan in view.get("boat_loans") or []],
        "azteca_forms": forms.choices(view),
        "card_name": card_name, "card_meaning": card_meaning,
        "place_label": place,
    }


def _seat(seat: Mapping[str, Any], place: Any) -> dict[str, Any]:
    """A people's public facts: Tributes are announced aloud (9.0), counters on the board are seen."""
    generals = seat.get("generals") or {}
    return {"seat": seat.get("seat"), "name": seat.get("name"), "capital": place(seat.get("capital")),
            "tributes": seat.get("tributes", 0), "hand": seat.get("hand", 0), "last_card": seat.get("last_card"),
            "cities": [place(key) for key in seat.get("cities") or []],
            "generals": [(letter, place(where) if where else None) for letter, where in sorted(generals.items())],
            "boats": [(place(zone), count) for zone, count in sorted((seat.get("boats") or {}).items())],
            "pochtecas": seat.get("pochtecas", 0),
            "envoys": [(letter, place(where)) for letter, where in sorted((seat.get("envoys") or {}).items())],
            "spies": [(letter, place(where)) for letter, where in sorted((seat.get("spies") or {}).items())]}


def _mine(me: Mapping[str, Any], place: Any) -> dict[str, Any]:
    """The reader's own secrets, from its own part of the view only."""
    chart = me.get("chart") or {}
    return {"seat": me.get("seat"), "sacrifice": me.get("sacrifice", 0), "urn": me.get("urn", 0),
            "hand": list(me.get("hand") or []),
            "chart": [(BOX_TITLES[box], *(chart.get(box) or [0, 0])) for box in BOXES],
            "looked": sorted((me.get("looked") or {}).items()),
            "marker": me.get("marker"),
            "my_markers": [(place(key), value) for key, value in (me.get("my_markers") or {}).items()],
            "plays": list(me.get("plays") or []),
            "boat_plan": [(place(f"lake-{zone}"), count) for zone, count in (me.get("boat_plan") or {}).items()],
            "answer": me.get("answer"), "plan": me.get("plan"), "offers": list(me.get("offers") or [])}
