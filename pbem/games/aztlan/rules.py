"""Aztlán's rules page for players (templates/games/aztlan/rules.html) and the card meanings
the game page shows beside each card: pbem's own words, the section of the page each kind
of decision links to, and the example drawn with the board's own drawing."""
from __future__ import annotations

from functools import cache
from typing import Any

from engine.aztlan.cards import (AGES, CARD_TITLES, EAGLE_JAGUAR, OFFERING, PAWNS_PER_AGE, RAFTS, SACRED_GAMES,
                                 TLATOANI)
from engine.aztlan.data import packaged_board, packaged_edition
from engine.aztlan.edition import PowerCard
from pbem.games.aztlan import drawing

# What each prosperity card does, when it is played.
CARD_MEANINGS = {
    "mixcoatl": "Scoring turn: 2 more points for each jungle territory where you have pawns.",
    "tepeyollotl": "Scoring turn: 2 more points for each mountain territory where you have pawns.",
    "xipe-totec": "Scoring turn: 2 more points for each terraced field where you have pawns.",
    OFFERING: "Kept to the end: 1, 2, 3, 4 or 5 Offerings score 1, 4, 9, 16 or 25 points.",
    SACRED_GAMES: "When a battle is declared against you: your pawns stay, in coexistence with the winner.",
    RAFTS: "Scoring turn: two of your territories on the shore of one lake count as neighbours.",
    TLATOANI: "Conflict turn, tied for the most power in a territory: you win it, then battle or coexist.",
    EAGLE_JAGUAR: "Development turn: place one more pawn besides the pawn of your turn.",
}
# The section of the rules page that explains each kind of decision.
ANCHORS = {"power": "power", "turn": "development", "conflict": "conflict", "reaction": "battle",
           "scoring": "scoring"}

# The scoring example: Quetzal played card 7 (mountains); one domain of three territories
# (3, 4, 5: two of them mountains) and a domain of one (26, a mountain); Coyote coexists in 4.
EXAMPLE_PAWNS = {"3": {"quetzal": 1}, "4": {"quetzal": 2, "coyote": 1}, "5": {"quetzal": 1},
                 "26": {"quetzal": 1}, "20": {"coyote": 2}}
EXAMPLE_DOMAIN = (3, 4, 5)


def card_meaning(card: str) -> str:
    return CARD_MEANINGS.get(card, "")


def power_meaning(card: PowerCard) -> str:
    """"Power 7 per pawn; domains score mountains; 4 points at the end if never played"."""
    scores = ("domains score the type you choose (the wild card)" if card.type == "wild"
              else f"domains score {card.type}")
    return (f"Power {card.number} per pawn in a conflict; {scores}; {card.points} "
            f"point{'s' if card.points != 1 else ''} at the end if never played.")


@cache
def rules_context() -> dict[str, Any]:
    """The same for every reader: drawn once per process."""
    board = packaged_board("default")
    edition = packaged_edition("default")
    view = {"pawns": EXAMPLE_PAWNS, "peoples": [{"people": "quetzal"}, {"people": "coyote"}], "conflicts": []}
    return {"example_svg": drawing.board_svg(board, view, highlight=EXAMPLE_DOMAIN, id_prefix="rules"),
            "example_names": {t.id: t.name for t in board.territories},
            "power_cards": [(card, power_meaning(card)) for card in edition.power_cards],
            "prosperity_cards": [(card, CARD_TITLES[card], CARD_MEANINGS[card]) for card in CARD_TITLES],
            "deck_counts": {card: edition.deck.count(card) for card in CARD_TITLES},
            "ages": AGES, "pawns_per_age": PAWNS_PER_AGE}
