"""What one seat (or a spectator) may see: public facts plus the reader's own bid, built
field by field.  Secret: this round's bids until all are in, and later rounds' rows."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from duel.rules import BIDDING, PICKING, PUBLIC

if TYPE_CHECKING:
    from duel.rules import DuelState


def build_view(state: "DuelState", reader: int | None) -> dict[str, Any]:
    revealed = state.phase != BIDDING
    view: dict[str, Any] = {
        "game": "duel",
        "round": state.round,
        "rounds": state.rounds,
        "phase": state.phase,
        "options": dict(state.setup.options),
        "seats": [{"seat": seat, "name": state.setup.names[s], "coins": state.coins[s],
                   "spent": state.spent[s], "tokens": list(state.tokens[s]), "score": state.score(s),
                   "has_bid": state.bids[s] is not None, "bid": state.bids[s] if revealed else None}
                  for s, seat in enumerate(state.seats)],
        "row": list(state.row),
        "turn_order": [state.seats[s] for s in state.turn_order] if state.phase == PICKING else [],
        "decisions": [d.public() for d in state.decisions(options=False)],
        "round_scores": state.scores_by_round(),
        "result": state.final.to_json() if state.final else None,
        "events": [dict(event) for event, audience in zip(state.events, state.audiences)
                   if audience in (PUBLIC, reader)],
    }
    if reader is not None:
        mine = [state.decision_of(reader).private()] if reader in state.waiting() else []
        view["me"] = {"seat": state.seats[reader], "bid": state.bids[reader], "decisions": mine}
    return view
