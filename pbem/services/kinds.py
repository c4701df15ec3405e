"""A game's static facts as the service uses them: its kinds of decision and its bots, looked
up in the registry by the game's name (a game row's `kind`, a state's `game`), so the service
spells out no game's words itself (docs/engine.md)."""
from __future__ import annotations

from engine import get_game
from engine.core import DecisionKind
from pbem.services.errors import Invalid


def decision_kinds(game_name: str) -> dict[str, DecisionKind]:
    """The game's kinds of decision by name, in the game's order."""
    return {kind.name: kind for kind in get_game(game_name).decision_kinds}


def default_hours(game_name: str) -> dict[str, int]:
    """The default deadline, in hours, of each kind of decision of the game."""
    return {name: kind.hours for name, kind in decision_kinds(game_name).items()}


def ask(game_name: str, kind: str | None) -> str:
    """What a player owing `kind` is asked to do ("choose your power card"), for "it is your
    turn to ..."; "decide" for a kind the game does not know."""
    known = decision_kinds(game_name).get(kind or "")
    return known.ask if known else "decide"


def noun(game_name: str, kind: str | None) -> str:
    """One decision of `kind` in a sentence ("a development turn"), else "a decision"."""
    known = decision_kinds(game_name).get(kind or "")
    return known.noun if known else "a decision"


def order_words(game_name: str) -> frozenset[str]:
    """The words the game's orders start with, lowercase."""
    return frozenset(word.lower() for kind in decision_kinds(game_name).values() for word in kind.words)


def check_bot(game_name: str, bot: object) -> str:
    """`bot` if the game has a bot of that kind, else Invalid naming the game's bots."""
    bots = get_game(game_name).bots
    if bot not in bots:
        raise Invalid(f"unknown bot {str(bot)[:20]!r}; known: {', '.join(bots)}")
    return str(bot)
