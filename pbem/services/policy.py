"""A game's deadline policy: how long each kind of decision may take (hours per kind, or a
clock per seat), and what happens when a deadline is missed, a seat is abandoned or a player
is on vacation (docs/deadlines.md).

The host sets it when creating the game (pbem/services/lobby.py); a game keeps what was given
and the defaults fill in the rest when it is read.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.models import Game
from pbem.services.errors import Invalid

MAX_HOURS = 14 * 24  # the longest a decision's hours, and a clock's figures, may be
DEFAULT_BOTS = ("heuristic", "minimal")  # what plays a missed decision (on_missed "bot")
VACATION_RULES = ("stretch", "bot")
REPLACE_AFTER = 3  # missed deadlines in a row before the seat is offered to a replacement
REPLACE_AFTER_RANGE = (1, 10)
POLICY_DEFAULTS: dict[str, Any] = {"default": "heuristic", "replace_after": REPLACE_AFTER,
                                   "abandoned": "heuristic", "vacation": "stretch"}


@dataclass(frozen=True)
class Clock:
    """Fischer time for correspondence (OGS's "3 days + 1 day up to 7 days"), in hours: each
    seat's reserve starts at `initial`, gains `increment` after each of its decisions and never
    exceeds `maximum`; the first `per_turn` hours of each decision are not taken from it."""
    initial: int
    increment: int
    maximum: int
    per_turn: int = 0


@dataclass(frozen=True)
class Policy:
    hours: dict[str, int | None]
    on_missed: str  # "bot": the default plays a missed decision; "wait": remind and re-arm
    default: str  # which bot plays a missed decision: "heuristic" or "minimal"
    replace_after: int
    abandoned: str  # which bot plays a seat offered to a replacement until someone takes it
    vacation: str  # "stretch": deadlines wait for the vacation's end; "bot": the default plays
    clock: Clock | None = None  # None: every seat has the kind's hours for each decision

    def hours_for(self, kind: str) -> int | None:
        return self.hours.get(kind)

    def rearm_hours(self, kind: str) -> int:
        """The more time a missed decision gets under on_missed "wait": the kind's window, or
        under a clock the free hours of a decision plus one increment (the spent reserve is 0)."""
        if self.clock is not None:
            return self.clock.per_turn + self.clock.increment
        return self.hours_for(kind) or 24


def policy_of(game: Game) -> Policy:
    """The game's deadline policy with the defaults filled in (games keep what was given)."""
    return policy_from(game.deadline_policy)


def policy_from(stored: dict[str, Any] | None) -> Policy:
    stored = {**POLICY_DEFAULTS, **(stored or {})}
    return Policy(hours=dict(stored.get("hours") or {}), on_missed=stored.get("on_missed", "bot"),
                  default=stored["default"], replace_after=int(stored["replace_after"]),
                  abandoned=stored["abandoned"], vacation=stored["vacation"],
                  clock=Clock(**stored["clock"]) if stored.get("clock") else None)


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
    if "clock" in data:
        clock = data.pop("clock")
        if clock is not None:
            out["clock"] = check_clock(clock)
    return out


CLOCK_FIGURES = {"initial": "the reserve a seat starts with", "increment": "the hours each decision adds",
                 "maximum": "the most a reserve may hold", "per_turn": "the hours of each decision not taken from it"}


def check_clock(given: Any) -> dict[str, int]:
    """A clock's figures, checked: whole hours, 1 <= increment and initial <= maximum <= MAX_HOURS,
    per_turn 0 to MAX_HOURS (left out: 0)."""
    if not isinstance(given, dict):
        raise Invalid("the clock is given as initial, increment and maximum hours (and per_turn)")
    unknown = [str(key)[:20] for key in given if key not in CLOCK_FIGURES]
    if unknown:
        raise Invalid(f"unknown clock setting {unknown[0]!r}; known: {', '.join(CLOCK_FIGURES)}")
    clock: dict[str, int] = {}
    for key, what in CLOCK_FIGURES.items():
        value = given.get(key, 0 if key == "per_turn" else None)
        low = 0 if key == "per_turn" else 1
        if value is None:
            raise Invalid(f"the clock needs {key} ({what}), in hours")
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= MAX_HOURS:
            raise Invalid(f"the clock's {key} ({what}) must be {low} to {MAX_HOURS} hours")
        clock[key] = value
    for key in ("initial", "increment"):
        if clock[key] > clock["maximum"]:
            raise Invalid(f"the clock's {key} ({clock[key]} hours) is more than its maximum ({clock['maximum']} hours)")
    return clock
