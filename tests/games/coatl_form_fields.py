"""A Cóatl order as the fields of the game page's decision form (templates/games/coatl/game/
_decisions.html): what a person ticks and picks to send it.  The form tests check that every
value used is one the form offers; the browser test fills the same fields by clicking."""
from __future__ import annotations

from typing import Any

from engine.coatl.orders import Add, Assemble, Choose, Complete, Fulfil, Keep, New, Sacrifice, Take, to_text
from engine.coatl.requirements import LETTERS


def piece_value(colour: str, kind: str) -> str:
    return f"{LETTERS[colour]} {kind}"


def step_fields(step: Any) -> dict[str, Any]:
    """One assembly step row: its verb (`do`) and the piece, cards or temple it needs."""
    if isinstance(step, New):
        return {"do": "new", "piece": piece_value(step.colour, step.kind)}
    if isinstance(step, Add):
        return {"do": f"{'front' if step.front else 'add'}-{step.coatl}", "piece": piece_value(step.colour, step.kind)}
    if isinstance(step, Fulfil):
        return {"do": f"fulfil-{step.coatl}", "card": [str(card) for card in step.cards]}
    if isinstance(step, Complete):
        return {"do": f"complete-{step.coatl}", "temple": "" if step.temple is None else str(step.temple)}
    raise TypeError(step)


def form_fields(kind: str, order: Any) -> dict[str, Any]:
    """The posted fields (a value a list for a group of boxes) and, for a turn, the button
    pressed (`action`); assembly steps as `steps`, one dict a row."""
    if isinstance(order, Keep):
        return {"kind": kind, "keep": [str(card) for card in order.cards]}
    if isinstance(order, Choose):
        fields = {"kind": kind, "card": [str(card) for card in order.cards], "deck": str(order.deck)}
        if kind == "choose":
            return {**fields, "discard": [str(card) for card in order.discard]}
        return {**fields, "action": "choose"}
    if isinstance(order, Take):
        return {"kind": kind, "action": "take", "take": f"{order.kind} {order.space}"}
    if isinstance(order, Assemble):
        if not order.steps:
            return {"kind": kind, "action": "pass"}
        return {"kind": kind, "action": "assemble", "steps": [step_fields(step) for step in order.steps]}
    if isinstance(order, Sacrifice):
        return {"kind": kind, "action": "sacrifice", "sacrifice": to_text(order).removeprefix("sacrifice ")}
    raise TypeError(order)


def posted(fields: dict[str, Any]) -> list[tuple[str, str]]:
    """The fields as a browser posts them: (name, value) pairs, step rows numbered from 1."""
    pairs: list[tuple[str, str]] = []
    for name, value in fields.items():
        if name == "steps":
            for row, step in enumerate(value, start=1):
                pairs += [(f"step-{row}-{part}", item) for part, shown in step.items()
                          for item in (shown if isinstance(shown, list) else [shown])]
        else:
            pairs += [(name, item) for item in (value if isinstance(value, list) else [value])]
    return pairs
