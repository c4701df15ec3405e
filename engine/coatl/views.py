"""What one seat (or a spectator) may see of a game of Cóatl.

Built field by field from public facts plus the reader's own secrets, never by filtering a
full dump.  Secret: the order of the deck and of the bags, every hand of prophecies and the
draws into it, each seat's own temple card until it is fulfilled, the setup draw and what a
seat keeps of it until every seat has chosen.  Public: the supply board, the face-up
prophecies and temples, the player boards, every cóatl with the cards placed beside it and
its announced points, hand sizes (once setup is over), unused Sacrifice tokens and temples
taken face up by Priest Commitment.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.coatl.orders import piece_text
from engine.coatl.state import SETUP

if TYPE_CHECKING:
    from engine.coatl.state import CoatlState


def build_view(state: "CoatlState", reader: int | None) -> dict[str, Any]:
    view: dict[str, Any] = {
        "game": "coatl",
        "options": dict(state.setup.options),
        "round": state.round,
        "phase": state.phase,
        "players": state.n,
        "turn": state.seats[state.turn] if state.phase not in (SETUP, "over") else None,
        "actions_left": state.actions_left if state.phase not in (SETUP, "over") else 0,
        "supply": _supply(state),
        "bags": _bags(state),
        "row": list(state.row),
        "deck": len(state.deck),
        "discard": len(state.discard),
        "commons": state.commons(),
        "piles": [len(pile) for pile in state.piles],
        "seats": [_seat(state, s) for s in range(state.n)],
        "trigger": _trigger(state),
        "final_turns": [[state.seats[s], actions] for s, actions in state.final_turns],
        "decisions": [d.public() for d in state.decisions(options=False)],
        "scores": state.scores_by_round(),
        "result": state.final.to_json() if state.final else None,
        "events": state.events_for(reader),
    }
    if reader is not None:
        view["me"] = _me(state, reader)
    return view


def bot_view(state: "CoatlState", reader: int) -> dict[str, Any]:
    """The parts of the reader's view its bot reads for a decision, built by the same
    functions: the whole view, with every seat and the event log, costs more than the bot's
    thinking (tests/engine/coatl/test_coatl_bots.py checks they agree)."""
    return {"supply": _supply(state), "bags": _bags(state), "row": list(state.row), "commons": state.commons(),
            "trigger": _trigger(state), "seat": _seat(state, reader), "me": _me(state, reader)}


def _supply(state: "CoatlState") -> dict[str, Any]:
    return {kind: [None if space is None else [piece_text(colour, kind) for colour in space] for space in spaces]
            for kind, spaces in state.supply.items()}


def _bags(state: "CoatlState") -> dict[str, int]:
    return {kind: len(bag) for kind, bag in state.bags.items()}


def _trigger(state: "CoatlState") -> dict[str, Any] | None:
    return None if state.trigger is None else {"by": state.trigger["by"], "seat": state.seats[state.trigger["seat"]]}


def _seat(state: "CoatlState", s: int) -> dict[str, Any]:
    player = state.players[s]
    return {
        "seat": state.seats[s],
        "name": state.setup.names[s],
        "board": [piece_text(*piece) for piece in sorted(player.board)],
        "hand_size": len(player.hand),  # hands are filled only once every seat has kept
        "kept": player.kept is not None if state.phase == SETUP else True,
        "coatls": [coatl.to_json() for coatl in player.coatls],
        "tokens": list(player.tokens),
        "committed": list(player.committed),
        "points": sum(coatl.points for coatl in player.completed),  # announced on completion
    }


def _me(state: "CoatlState", s: int) -> dict[str, Any]:
    player = state.players[s]
    return {"seat": state.seats[s],
            "hand": sorted(player.hand),
            "temples": list(player.temples),
            "dealt": sorted(player.dealt),
            "kept": list(player.kept) if player.kept is not None and state.phase == SETUP else None,
            "decisions": [state.decision_of(s).private()] if s in state.waiting() else []}
