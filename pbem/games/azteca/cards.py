"""Azteca's cards in plain words, from the edition's data (engine/azteca/data/edition.json): a
card's name and what it does (its text names the phase it is played in), for the game page's
hover notes, the decision forms and the rules page.  An edition given inline may hold cards the
shipped one lacks: those show their key."""
from __future__ import annotations

from functools import cache
from typing import Any

from engine.azteca.components import AztecaCard, packaged_edition


@cache
def _cards() -> dict[str, AztecaCard]:
    return {card.key: card for card in packaged_edition().cards}


def card_name(key: Any) -> str:
    card = _cards().get(str(key))
    return card.name if card else str(key)


def card_meaning(key: Any) -> str:
    """"Lake Domination: a storm in one lake zone; ..."; "" if unknown."""
    card = _cards().get(str(key))
    if card is None:
        return ""
    return card.text + (" It may be played twice in a row." if card.repeatable else "")


def card_list() -> list[tuple[str, str, int, int, str]]:
    """Every card of the shipped edition: (key, name, copies, phase, meaning), in phase order."""
    return [(card.key, card.name, card.count, card.phase, card_meaning(card.key))
            for card in sorted(_cards().values(), key=lambda card: (card.phase, card.name))]
