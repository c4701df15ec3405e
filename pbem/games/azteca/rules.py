"""Azteca's rules page for players (templates/games/azteca/rules.html): the section each kind of
decision links to, the map drawn as the game page draws it (an empty valley), and the cards
with what each does, from the edition's data."""
from __future__ import annotations

from functools import cache
from typing import Any

from pbem.games.azteca.cards import card_list
from pbem.games.azteca.drawing import board_svg

# The section of the rules page that explains each kind of decision.
ANCHORS = {"dike": "setup", "army": "setup", "place": "setup", "cards": "cards", "purchase": "purchase",
           "look": "market", "bid": "market", "rebid": "market", "send": "pochtecas", "mission": "pochtecas",
           "attack": "lake", "join": "lake", "fight": "lake", "plan": "war", "march": "war", "reserve": "battles",
           "cousin": "battles", "losses": "battles", "retreat": "battles", "promote": "battles",
           "urn": "judgement", "tezcatlipoca": "judgement"}


@cache
def rules_context() -> dict[str, Any]:
    """The same for every reader: drawn once per process."""
    empty = {"players": 4, "seats": [], "gods": {"quetzalcoatl": 0, "tezcatlipoca": 0}}
    return {"map_svg": board_svg(empty, {}, id_prefix="rules", title=None), "azteca_cards": card_list()}
