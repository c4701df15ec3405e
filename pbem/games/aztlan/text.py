"""Aztlán's answers to the mail commands BOARD and HAND, in plain text, from the reader
seat's view (the state gives only the board's public geometry: names, types)."""
from __future__ import annotations

from typing import Any, Mapping

from engine.core import State
from pbem.games.aztlan.sentences import card_title


def who(names: Mapping[str, str], seat: str) -> str:
    """"Ana (quetzal)", or the seat alone when the player is named after it."""
    name = names.get(seat)
    return f"{name} ({seat})" if name and name != seat else seat


def board_text(state: State, view: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """Pawns per territory, the empty ones, the score track, each people's pawns and this
    age's revealed power cards."""
    territories = state.board.territories  # type: ignore[attr-defined]
    pawns = view.get("pawns", {})
    lines = []
    for t in territories:
        here = pawns.get(str(t.id), {})
        if not here:
            continue
        present = ", ".join(f"{people} {count}" for people, count in sorted(here.items()))
        lines.append(f"  {t.id:>2} {t.name} ({t.type}): {present}{'  [shared]' if len(here) > 1 else ''}")
    if not lines:
        lines.append("  no pawns on the board yet")
    empty = [str(t.id) for t in territories if not pawns.get(str(t.id))]
    if empty:
        lines.append("  empty: " + " ".join(empty))
    lines.append("Score track: " + ", ".join(
        f"{who(names, s['seat'])} {s['score']}" for s in view.get("seats", [])) + ".")
    lines.append("Pawns: " + "; ".join(
        f"{p['people']} {p['to_place']} to place, {p['reserve']} in reserve, {p['removed']} removed"
        for p in view.get("peoples", [])) + ".")
    played = [f"{who(names, s['seat'])} {s['power_card']}" for s in view.get("seats", []) if s.get("power_card")]
    if played:
        lines.append("Power cards this age: " + ", ".join(played) + ".")
    return "\n".join(lines)


def hand_text(view: Mapping[str, Any]) -> str:
    """The reader's prosperity cards, power card of this age and power cards left."""
    me = view.get("me") or {}
    cards = me.get("hand") or []
    lines = ["Your prosperity cards: " + (", ".join(card_title(c) for c in cards) if cards else "none") + "."]
    if me.get("power_card") is not None:
        lines.append(f"Your power card this age: {me['power_card']}.")
    if me.get("power_left"):
        lines.append("Power cards left in your hand: " + ", ".join(str(c) for c in me["power_left"]) + ".")
    return "\n".join(lines)
