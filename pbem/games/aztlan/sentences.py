"""Plain-text sentences for game events, for pages now and for mails and reports later.

Input is an event from a view (already filtered for the reader); output is plain text:
templates escape it like any other text.
"""
from __future__ import annotations

from typing import Any, Callable

from engine.aztlan.cards import CARD_TITLES


def card_title(card: str) -> str:
    return CARD_TITLES.get(card, card)


def _place(territories: dict[int, str], ident: Any) -> str:
    name = territories.get(ident)
    return f"{ident} ({name})" if name else str(ident)


def _removed(removed: dict[str, int]) -> str:
    return ", ".join(f"{count} {people}" for people, count in removed.items()) or "nobody"


def describe(event: dict[str, Any], names: dict[str, str], territories: dict[int, str]) -> str:
    """One line for `event`; `names` maps seats to player names, `territories` ids to names."""
    kind = event.get("type", "")
    handler = _HANDLERS.get(kind)
    if handler is None:
        return kind.replace("-", " ")
    return handler(event, lambda seat: names.get(seat, seat), lambda t: _place(territories, t))


Name = Callable[[str], str]
Place = Callable[[Any], str]


def _turn(e: dict[str, Any], name: Name, place: Place) -> str:
    text = f"{name(e['seat'])} placed a pawn in {place(e['place'])}"
    if e.get("eagle") is not None:
        text += f", an Eagle and Jaguar pawn in {place(e['eagle'])}"
    if e.get("move"):
        text += f" and moved a pawn from {place(e['move'][0])} to {place(e['move'][1])}"
    return text + "."


def _scores(e: dict[str, Any], name: Name, place: Place) -> str:
    parts = [f"{name(seat)} +{s['points']} (total {s['total']})" for seat, s in e["scores"].items()]
    return f"Age {e['age']} scored: " + "; ".join(parts) + "."


_HANDLERS: dict[str, Callable[[dict[str, Any], Name, Place], str]] = {
    "age": lambda e, name, place: f"Age {e['age']} begins.",
    "chosen": lambda e, name, place: f"{name(e['seat'])} has chosen a power card.",
    "my-card": lambda e, name, place: f"You chose power card {e['card']}.",
    "turn-order": lambda e, name, place: "Turn order: " + ", ".join(e["order"]) + ".",
    "turn": _turn,
    "scores": _scores,
    "reveal": lambda e, name, place: "Power cards revealed: " + ", ".join(
        f"{seat} {card}" for seat, card in e["cards"].items()) + ".",
    "conflicts": lambda e, name, place: (
        "Conflicts in " + ", ".join(place(c["territory"]) for c in e["territories"]) + "."
        if e["territories"] else "No conflicts this age."),
    "tlatoani": lambda e, name, place: f"{name(e['seat'])} played the Great Tlatoani in {place(e['territory'])}.",
    "coexist": lambda e, name, place: f"{name(e['seat'])} chose to coexist in {place(e['territory'])}.",
    "battle": lambda e, name, place: f"{name(e['seat'])} declared battle in {place(e['territory'])}.",
    "my-answer": lambda e, name, place: (
        f"You answered the battle in {place(e['territory'])}: "
        f"{'Sacred Games' if e['sacred'] else 'accepted'}."),
    "battle-result": lambda e, name, place: (
        f"Battle in {place(e['territory'])} won by {name(e['seat'])}; removed: {_removed(e['removed'])}"
        + (f"; Sacred Games: {', '.join(e['sacred_games'])}" if e.get("sacred_games") else "") + "."),
    "tie": lambda e, name, place: (
        f"Tie in {place(e['territory'])} stands ({', '.join(e['seats'])}); removed: {_removed(e['removed'])}."),
    "reshuffle": lambda e, name, place: f"The discards were reshuffled into a new deck of {e['cards']} cards.",
    "deck-empty": lambda e, name, place: f"The deck is empty: {name(e['seat'])} draws nothing.",
    "draw": lambda e, name, place: f"{name(e['seat'])} drew a prosperity card.",
    "my-draw": lambda e, name, place: f"You drew {card_title(e['card'])}.",
    "my-scoring": lambda e, name, place: f"Your scoring turn: {e['order']}.",
    "game-over": lambda e, name, place: f"The game is over: {name(e['winner'])} wins.",
}


def describe_all(events: list[dict[str, Any]], names: dict[str, str],
                 territories: dict[int, str]) -> list[dict[str, Any]]:
    return [{"age": event.get("age"), "type": event.get("type"), "text": describe(event, names, territories)}
            for event in events]
