"""Aztlán's decision forms -> order text in the engine's grammar (docs/orders.md).

Each form on the game page (templates/games/aztlan/game/_decisions.html) posts plain
fields; this turns them into the very text a player could type or mail, and that text goes
through the same service function as every other channel.  Fields are checked for shape
only (numbers, known words): the rules engine judges the orders.
"""
from __future__ import annotations

from typing import Any

from engine.aztlan.board import TERRAIN_TYPES
from engine.aztlan.cards import BLESSINGS
from engine.core import OrderError


def _territory(value: str | None, field: str, required: bool = True) -> str | None:
    value = (value or "").strip()
    if not value:
        if required:
            raise OrderError(f"choose a territory for {field}")
        return None
    if not value.isdigit() or len(value) > 6:
        raise OrderError(f"{field}: a territory is given by its number")
    return value


def _power(form: Any) -> list[str]:
    card = (form.get("card") or "").strip()
    if not card.isdigit() or len(card) > 2:
        raise OrderError("choose a power card")
    return [f"card {card}"]


def _turn(form: Any) -> list[str]:
    text = f"place {_territory(form.get('place'), 'place')}"
    eagle = _territory(form.get("eagle"), "eagle", required=False)
    if eagle:
        text += f" eagle {eagle}"
    start = _territory(form.get("move_from"), "move from", required=False)
    end = _territory(form.get("move_to"), "move to", required=False)
    if bool(start) != bool(end):
        raise OrderError("a move needs both the territory it leaves and the one it enters")
    if start:
        text += f" move {start} to {end}"
    return [text]


CONFLICT_CHOICES = {"battle": "battle {t}", "coexist": "coexist {t}", "tie": "tie {t}",
                    "tlatoani-battle": "tlatoani {t} battle", "tlatoani-coexist": "tlatoani {t} coexist"}


def _conflict(form: Any) -> list[str]:
    """One field per disputed territory, `settle-<id>`, in the order they are listed."""
    lines = []
    for name in form:
        if not name.startswith("settle-"):
            continue
        territory = _territory(name[len("settle-"):], "conflict")
        choice = form.get(name)
        if choice not in CONFLICT_CHOICES:
            raise OrderError(f"choose how to settle the conflict in {territory}")
        lines.append(CONFLICT_CHOICES[choice].format(t=territory))
    if not lines:
        raise OrderError("choose how to settle your conflicts")
    return lines


def _reaction(form: Any) -> list[str]:
    territory = _territory(form.get("territory"), "the battle")
    answer = form.get("answer")
    if answer not in ("accept", "sacred"):
        raise OrderError("answer the battle: accept, or play Sacred Games")
    return [f"{answer} {territory}"]


def _scoring(form: Any) -> list[str]:
    parts = ["score"]
    wild = (form.get("wild") or "").strip()
    if wild:
        if wild not in TERRAIN_TYPES:
            raise OrderError("the wild card takes a territory type")
        parts.append(f"wild {wild}")
    for god in form.getlist("blessing"):
        if god not in BLESSINGS:
            raise OrderError("unknown blessing")
        parts.append(f"blessing {god}")
    for pair in form.getlist("rafts"):
        a, _, b = pair.partition("-")
        parts.append(f"rafts {_territory(a, 'rafts')} and {_territory(b, 'rafts')}")
    return [" ".join(parts)]


def order_text(form: Any) -> str:
    """The order text a submitted decision form (or the page's free text, kind "text")
    stands for; OrderError when a field is missing or malformed."""
    kind = form.get("kind")
    if kind == "text":
        return form.get("orders", "")
    builder = {"power": _power, "turn": _turn, "conflict": _conflict, "reaction": _reaction,
               "scoring": _scoring}.get(kind or "")
    if builder is None:
        raise OrderError("unknown kind of form")
    return "\n".join(builder(form))
