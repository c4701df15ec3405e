"""The Flower War's Azteca cards (phase 7): what each may name and what it does.

Two sorts.  Quimichtin (a spy) and Natural Catastrophe act when they are played, like the cards
of other phases.  Reinforcements, Heroic Battle and Uitzilpochtli name a region and wait, secret,
for the next battle there that they may join (`joins`): they are played as that battle begins,
in turn order, and change how it is fought (`state.war["cards"]`, read by engine/azteca/war.py
when it builds the battle).  The cards' texts are the edition's (all assumed); the readings and
the rule text they rest on are in docs/rules-azteca.md, "Playing cards".

Each function takes the AztecaState (engine/azteca/state.py) and a seat index; cards.py files
them in its EFFECTS.
"""
from __future__ import annotations

from typing import Any

from engine.azteca.battle import ATTACKER, DEFENDER, Force
from engine.azteca.turn import PUBLIC

SPY_BOXES = ("A", "B", "C", "R")


# ---- what a play may name ------------------------------------------------------------------

def neutral_lands(state: Any, s: int) -> list[str]:
    """14.13: "During an attack of a neutral territory": a territory nobody holds."""
    return sorted(region.key for region in state.geo.land()
                  if region.kind in ("valley", "outer") and state.owner.get(region.key) is None)


def battlefields(state: Any, s: int) -> list[str]:
    """Any region a battle may be fought on: land, or a lake zone for an interception (14.4)."""
    return sorted(region.key for region in [*state.geo.land(), *state.geo.lakes()])


def enemy_boxes(state: Any, s: int) -> list[str]:
    """Quimichtin: another seat's army on the board or its Reserve, written SEAT-LETTER."""
    return [f"{seat}-{box.lower()}" for o, seat in enumerate(state.seats) if o != s
            for box in SPY_BOXES if box == "R" or state.people[o].generals.get(box)]


# ---- whether a waiting play joins the battle about to begin ----------------------------------

def side_of(state: Any, s: int) -> str | None:
    return state.war["cards"]["sides"].get(s)


def fights_here(state: Any, s: int) -> bool:
    """Heroic Battle, Uitzilpochtli: the seat is the attacker or the defender."""
    return side_of(state, s) is not None


def neutral_attacked(state: Any, s: int) -> bool:
    """Reinforcements: an attack of a neutral territory (14.13), whoever plays it."""
    return state.war["cards"]["neutral"]


# ---- what a play does -------------------------------------------------------------------------

def reinforce(state: Any, s: int, card: Any, target: str) -> None:
    """14.13: the card's troops join the neutral; with the option `reinforcements` "own-side"
    the attacker's own card joins his army instead."""
    own = state.setup.options.get("reinforcements") == "own-side" and side_of(state, s) == ATTACKER
    state.war["cards"]["reinforcements"].append((state.seats[s], ATTACKER if own else DEFENDER,
                                                 Force(card.amount or 1, 0)))


def heroic(state: Any, s: int, card: Any, target: str) -> None:
    """14.6 "(except 'Heroic Battle' card)": nobody retreats from this battle."""
    state.war["cards"]["heroic"] = True


def yellow_dice(state: Any, s: int, card: Any, target: str) -> None:
    """Uitzilpochtli: the seat's side rolls yellow in the first round whatever its strength."""
    state.war["cards"]["yellow"].append(side_of(state, s))


def spy(state: Any, s: int, card: Any, target: str) -> None:
    """Quimichtin: the box's counters, shown to the player alone (14.1 keeps them face down)."""
    seat, _, box = target.rpartition("-")
    warriors, jaguars = state.people[state.seats.index(seat)].chart[box.upper()]
    state._event(s, "my-spied", seat=seat, army=box.upper(), warriors=warriors, jaguars=jaguars)


def catastrophe(state: Any, s: int, card: Any, target: str) -> None:
    """14.6: "This chain is broken by natural catastrophes": no chain passes through or ends on
    the region until the end of the turn."""
    state.catastrophes.add(target)
    state._event(PUBLIC, "catastrophe", region=target)


def battle_cards(sides: dict[int, str], neutral: bool, staying: list) -> dict[str, Any]:
    """What the cards played as a battle begins bring to it (troops that stayed are first)."""
    return {"sides": sides, "neutral": neutral, "reinforcements": list(staying), "heroic": False, "yellow": []}


__all__ = ["battle_cards", "battlefields", "catastrophe", "enemy_boxes", "fights_here", "heroic",
           "neutral_attacked", "neutral_lands", "reinforce", "spy", "yellow_dice"]
