"""A game's deadline policy: how long each kind of decision may take, and what happens when a
deadline is missed, a seat is abandoned or a player is on vacation (docs/deadlines.md).

The host sets it when creating the game (pbem/services/lobby.py); a game keeps what was given
and the defaults fill in the rest when it is read.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.models import Game
from pbem.services.errors import Invalid

DEFAULT_BOTS = ("heuristic", "minimal")  # what plays a missed decision (on_missed "bot")
VACATION_RULES = ("stretch", "bot")
REPLACE_AFTER = 3  # missed deadlines in a row before the seat is offered to a replacement
REPLACE_AFTER_RANGE = (1, 10)
POLICY_DEFAULTS: dict[str, Any] = {"default": "heuristic", "replace_after": REPLACE_AFTER,
                                   "abandoned": "heuristic", "vacation": "stretch"}


@dataclass(frozen=True)
class Policy:
    hours: dict[str, int | None]
    on_missed: str  # "bot": the default plays a missed decision; "wait": remind and re-arm
    default: str  # which bot plays a missed decision: "heuristic" or "minimal"
    replace_after: int
    abandoned: str  # which bot plays a seat offered to a replacement until someone takes it
    vacation: str  # "stretch": deadlines wait for the vacation's end; "bot": the default plays

    def hours_for(self, kind: str) -> int | None:
        return self.hours.get(kind)


def policy_of(game: Game) -> Policy:
    """The game's deadline policy with the defaults filled in (games keep what was given)."""
    return policy_from(game.deadline_policy)


def policy_from(stored: dict[str, Any] | None) -> Policy:
    stored = {**POLICY_DEFAULTS, **(stored or {})}
    return Policy(hours=dict(stored.get("hours") or {}), on_missed=stored.get("on_missed", "bot"),
                  default=stored["default"], replace_after=int(stored["replace_after"]),
                  abandoned=stored["abandoned"], vacation=stored["vacation"])


def check_policy_extras(data: dict[str, Any]) -> dict[str, Any]:
    """Validate (and take out of `data`) the settings beyond hours and on_missed."""
    out: dict[str, Any] = {}
    for key, allowed in (("default", DEFAULT_BOTS), ("abandoned", DEFAULT_BOTS),
                         ("vacation", VACATION_RULES)):
        if key in data:
            value = data.pop(key)
            if value not in allowed:
                raise Invalid(f"{key} must be one of {', '.join(allowed)}")
            out[key] = value
    if "replace_after" in data:
        value = data.pop("replace_after")
        low, high = REPLACE_AFTER_RANGE
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise Invalid(f"replace_after must be {low} to {high} missed deadlines in a row")
        out["replace_after"] = value
    return out
