"""Cóatl in plain text: a sentence per event of a view, and the answers to the mail commands
BOARD (everything public) and HAND (what only the reader knows), all from the reader's view."""
from __future__ import annotations

from typing import Any, Callable, Mapping

from pbem.games.coatl.cards import board_letters, coatl_letters, piece, prophecy_words, temple_words
from pbem.games.reporting import joined

Name = Callable[[Any], str]
# Events only their reader sees (besides "my-..." ones): the reader's own draws.
PRIVATE = frozenset({"dealt", "drawn"})


def _numbers(cards: Any) -> str:
    return joined([str(card) for card in cards]) if cards else "none"


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _choose(e: Mapping[str, Any], name: Name) -> str:
    taken = []
    if e.get("cards"):
        taken.append(f"face-up {'prophecy' if len(e['cards']) == 1 else 'prophecies'} {_numbers(e['cards'])}")
    if e.get("deck"):
        taken.append(f"{_plural(e['deck'], 'card', 'cards')} from the deck")
    text = f"{name(e.get('seat'))} took " + (joined(taken) if taken else "no prophecy")
    if e.get("discarded"):
        text += f" after discarding {_plural(e['discarded'], 'prophecy', 'prophecies')}"
    return text + "."


def _sacrifice(e: Mapping[str, Any], name: Name) -> str:
    who = name(e.get("seat"))
    token = e.get("token")
    if token == "pick":
        return f"{who} sacrificed for a Perfect Pick: {joined(list(e.get('pieces') or ['nothing']))}."
    if token == "commit":
        return f"{who} sacrificed for a Priest Commitment and took temple {e.get('temple')}."
    return f"{who} sacrificed to See the Future; the new face-up prophecies: {_numbers(e.get('row'))}."


def _complete(e: Mapping[str, Any], name: Name) -> str:
    temple = f" and temple {e['temple']}" if e.get("temple") is not None else ""
    return (f"{name(e.get('seat'))} completed cóatl {e.get('coatl')} with prophecies {_numbers(e.get('prophecies'))}"
            f"{temple}: {e.get('points')} points.")


def _game_over(e: Mapping[str, Any], name: Name) -> str:
    scores = e.get("scores") or {}
    ranked = "; ".join(f"{name(seat)} {scores.get(seat, 0)}" for seat in e.get("ranking") or scores)
    winner = f"{name(e['winner'])} wins" if e.get("winner") else "first place is shared"
    return f"The game is over: {winner} ({ranked})."


def _end(e: Mapping[str, Any], name: Name) -> str:
    if e.get("by") == "coatl":
        return f"{name(e.get('seat'))} completed a third cóatl: the final turns follow."
    return "No body segments are left: the round is played out, then everyone has a final turn."


_SENTENCES: dict[str, Callable[[Mapping[str, Any], Name], str]] = {
    "setup": lambda e, name: (f"The game begins. Face-up prophecies: {_numbers(e.get('row'))}; "
                              f"common temples: {_numbers(e.get('commons'))}."),
    "dealt": lambda e, name: (f"You drew prophecies {_numbers(e.get('cards'))} and your secret temple "
                              f"{_numbers(e.get('temples'))}."),
    "kept": lambda e, name: f"{name(e.get('seat'))} has chosen the prophecies to keep.",
    "my-keep": lambda e, name: f"You keep prophecies {_numbers(e.get('cards'))}.",
    "hands": lambda e, name: "Prophecies kept: " + "; ".join(
        f"{name(seat)} {size}" for seat, size in (e.get("sizes") or {}).items()) + ".",
    "take": lambda e, name: (f"{name(e.get('seat'))} took {e.get('kind')} space {e.get('space')}: "
                             f"{joined(list(e.get('pieces') or ['nothing']))}."),
    "choose": _choose,
    "drawn": lambda e, name: f"You drew prophecies {_numbers(e.get('cards'))} from the deck.",
    "assemble": lambda e, name: (f"{name(e.get('seat'))} passed." if e.get("steps") == "pass"
                                 else f"{name(e.get('seat'))} assembled: {e.get('steps')}."),
    "complete": _complete,
    "sacrifice": _sacrifice,
    "replenish": lambda e, name: f"The supply board was refilled: {joined(list(e.get('pieces') or ['nothing']))}.",
    "reshuffle": lambda e, name: f"The discarded prophecies were shuffled into a new deck of {e.get('cards')}.",
    "end-triggered": _end,
    "final-turns": lambda e, name: "Final turns: " + "; ".join(
        f"{name(seat)} {_plural(actions, 'action', 'actions')}" for seat, actions in e.get("turns") or []) + ".",
    "stalled": lambda e, name: "A whole round passed without an action: the game ends now.",
    "game-over": _game_over,
}


def sentence(event: Mapping[str, Any], names: Mapping[str, str]) -> str:
    kind = str(event.get("type", ""))
    handler = _SENTENCES.get(kind)
    if handler is None:
        return kind.replace("-", " ").capitalize() + "."
    return handler(event, lambda seat: names.get(str(seat), str(seat)))


def who(names: Mapping[str, str], seat: str) -> str:
    name = names.get(seat)
    return f"{name} ({seat})" if name and name != seat else seat


def board_text(view: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """The supply board, the bags, the face-up cards in words, then each seat's board and cóatls."""
    options = view.get("options") or {}
    supply = view.get("supply") or {}
    lines = ["Supply board:"]
    for kind in ("head", "tail", "body"):
        spaces = [f"{n} {' '.join(piece(p)[0] for p in space) if space else 'empty'}"
                  for n, space in enumerate(supply.get(kind) or [], start=1)]
        lines.append(f"  {kind}: " + ", ".join(spaces))
    bags = view.get("bags") or {}
    lines.append(f"Bags: {bags.get('head', 0)} heads, {bags.get('tail', 0)} tails, {bags.get('body', 0)} bodies. "
                 f"Prophecy deck: {view.get('deck', 0)}, discard pile: {view.get('discard', 0)}.")
    lines += _ending(view, names)
    lines.append("Face-up prophecies:")
    lines += [f"  {prophecy_words(card, options)}" for card in view.get("row") or []] or ["  none"]
    lines.append("Common temples:")
    lines += [f"  {temple_words(card)}" for card in view.get("commons") or []] or ["  none"]
    for seat in view.get("seats") or []:
        name = str(seat.get("seat", ""))
        facts = [f"{seat.get('points', 0)} points", f"{seat.get('hand_size', 0)} prophecies in hand",
                 "tokens " + (", ".join(seat.get("tokens") or []) or "none")]
        if view.get("turn") == name:  # a final turn may hold two actions: say so, one mail can carry both
            left = view.get("actions_left") or 1
            facts.append("to play" if left == 1 else f"to play ({left} actions left)")
        lines.append(f"{who(names, name)}: " + ", ".join(facts) + ".")
        lines.append(f"  board: {board_letters(seat.get('board') or [])}")
        for temple in seat.get("committed") or []:
            lines.append(f"  committed temple {temple_words(temple)}")
        for number, coatl in enumerate(seat.get("coatls") or [], start=1):
            cards = [f"prophecies {_numbers(coatl.get('prophecies'))}"]
            if coatl.get("temple") is not None:
                cards.append(f"temple {coatl['temple']}")
            state = f"complete, {coatl.get('points')} points" if coatl.get("complete") else "unfinished"
            lines.append(f"  cóatl {number}: {coatl_letters(coatl.get('pieces') or [])} ({state}; {', '.join(cards)})")
    return "\n".join(lines)


def _ending(view: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """Once the end is triggered: why, and the final turns still to come after the current one."""
    trigger = view.get("trigger")
    if not trigger:
        return []
    cause = (f"{who(names, str(trigger.get('seat')))} completed a third cóatl" if trigger.get("by") == "coatl"
             else "no body segments are left")
    if view.get("phase") != "final":  # the empty body supply: the round is played out first
        return [f"The game end is triggered: {cause}; the round is played out, then everyone has a final turn."]
    coming = "; ".join(f"{who(names, str(seat))} {_plural(actions, 'action', 'actions')}"
                       for seat, actions in view.get("final_turns") or [])
    return [f"The game end is triggered: {cause}. "
            + (f"Final turns after this one: {coming}." if coming else "This is the last turn.")]


def hand_text(view: Mapping[str, Any]) -> str:
    """The reader's prophecies and temples, each with what it asks and scores; in setup, the
    draw to keep from."""
    me = view.get("me") or {}
    options = view.get("options") or {}
    lines = []
    if me.get("dealt"):
        lines.append("Your draw, to keep up to 3 from:")
        lines += [f"  {prophecy_words(card, options)}" for card in me["dealt"]]
        if me.get("kept") is not None:
            lines.append(f"You keep: {_numbers(me['kept'])}.")
    lines.append("Your prophecies:")
    lines += [f"  {prophecy_words(card, options)}" for card in me.get("hand") or []] or ["  none"]
    committed = set(view_committed(view, me.get("seat")))
    lines.append("Your temples:")
    lines += [f"  {temple_words(card)}" + (" (committed, face up)" if card in committed else " (secret)")
              for card in me.get("temples") or []] or ["  none"]
    return "\n".join(lines)


def view_committed(view: Mapping[str, Any], seat: Any) -> list[int]:
    """The temples the seat took face up (Priest Commitment), from the seats' public part."""
    return next((list(s.get("committed") or []) for s in view.get("seats") or [] if s.get("seat") == seat), [])
