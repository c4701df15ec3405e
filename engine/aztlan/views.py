"""What one seat (or a spectator) may see of a game.

Built field by field from public facts plus the reader's own secrets, never by
filtering a full dump, so nothing new in the state can leak by default.
Secret: the deck order and seed, other seats' prosperity hands, power cards chosen
but not yet revealed, and scoring turns not yet carried out.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.aztlan.state import CONFLICT

if TYPE_CHECKING:
    from engine.aztlan.state import AztlanState


def build_view(state: "AztlanState", reader: int | None) -> dict[str, Any]:
    seats = state.seats
    board = state.board
    revealed_now = state.phase not in ("choosing", "development")
    view: dict[str, Any] = {
        "game": "aztlan",
        "board": board.name,
        "edition": state.setup.edition.name,
        "options": state.options.to_dict(),
        "age": state.age,
        "phase": state.phase,
        "players": len(seats),
        "seats": [_seat(state, s, revealed_now) for s in range(state.n)],
        "track": [seats[s] for s in sorted(range(state.n),
                                           key=lambda s: (-state.score[s], -state.height[s]))],
        "turn_order": [seats[s] for s in state.order] if state.phase != "choosing" else
                      [seats[s] for s in state.turn_order()],
        "pawns": {str(board.territories[t].id): {state.peoples[p]: count
                                                 for p, count in enumerate(row) if count}
                  for t, row in enumerate(state.pawns) if any(row)},
        "peoples": [{"people": state.peoples[p], "reserve": state.reserve[p],
                     "to_place": state.to_place[p],
                     "removed": state.removed_before[p] + state.removed_now[p]}
                    for p in range(len(state.peoples))],
        "deck_size": len(state.deck),
        "discard": sorted(state.discard),
        "decisions": [d.public() for d in state.decisions(options=False)],
        "age_scores": state.age_scores,
        "result": state.final,
        "events": state.events_for(reader),
    }
    if state.phase == CONFLICT:
        view["conflicts"] = [_conflict(state, c) for c in state.conflicts.values()]
        if state.reaction:
            view["battle"] = {"territory": board.territories[state.reaction.territory].id,
                              "seat": seats[state.reaction.winner],
                              "asked": [seats[s] for s in state.reaction.asked],
                              "answered": [seats[s] for s in state.reaction.answers]}
    if reader is not None:
        view["me"] = _me(state, reader)
    return view


def _seat(state: "AztlanState", s: int, revealed_now: bool) -> dict[str, Any]:
    played = list(state.played[s])
    current = state.chosen[s] if revealed_now else None
    return {
        "seat": state.seats[s],
        "name": state.setup.names[s] if state.setup.names else state.seats[s],
        "score": state.score[s],
        "people": state.peoples[state.control[s]],
        "hand_size": len(state.hands[s]),
        "power_played": played,  # face up, by age (this age's once revealed)
        "power_card": current,
        "power_unrevealed": sorted(set(state.card_type) - set(played)),
        "has_chosen": state.chosen[s] is not None,
    }


def _conflict(state: "AztlanState", conflict: Any) -> dict[str, Any]:
    seats = state.seats
    return {"territory": state.board.territories[conflict.territory].id,
            "powers": {state.peoples[p]: power for p, power in conflict.powers.items()},
            "winner": seats[conflict.winner] if conflict.winner is not None else None,
            "tied": [seats[s] for s in conflict.leaders],
            "resolved": conflict.resolved}


def _me(state: "AztlanState", s: int) -> dict[str, Any]:
    mine = [state.decision_of(s).private()] if s in state.waiting() else []
    return {"seat": state.seats[s],
            "hand": sorted(state.hands[s]),
            "power_card": state.chosen[s],
            "power_left": [c for c in state.power_left[s]],
            "decisions": mine}
