"""Cóatl's rules page for players (templates/games/coatl/rules.html) and the meanings of the
Sacrifice tokens the game page shows beside them: pbem's own words, the section each kind of
decision links to, and an example cóatl drawn as the reports draw one, scored by the cards'
own data."""
from __future__ import annotations

from functools import cache
from typing import Any

from engine.coatl.requirements import COLOURS
from pbem.games.coatl.cards import prophecies, prophecy_words, temple_words, temples
from pbem.games.coatl.scored_drawing import coatls_svg

# What each Sacrifice token does (views name them by these words).
TOKEN_TITLES = {"pick": "Perfect Pick", "future": "See the Future", "commit": "Priest Commitment"}
TOKEN_MEANINGS = {
    "pick": "Instead of an action: draw from the bags 1 head, 1 tail or 2 body pieces, as you choose, then refill "
            "the supply board.",
    "future": "Instead of an action: the face-up prophecies are replaced by new ones; then discard any cards from "
              "your hand and choose prophecies.",
    "commit": "Instead of an action: take a face-up temple into your hand; a cóatl you complete may fulfil it.",
}
# The section of the rules page that explains each kind of decision.
ANCHORS = {"keep": "setup", "turn": "turn", "choose": "tokens"}

# The example: a completed cóatl, head to tail, with two prophecies and a temple beside it.
EXAMPLE = (("yellow", "head"), ("yellow", "body"), ("yellow", "body"), ("black", "body"), ("red", "body"),
           ("blue", "body"), ("green", "tail"))
EXAMPLE_PROPHECIES = (11, 36)
EXAMPLE_TEMPLE = 1


def token_title(token: str) -> str:
    return TOKEN_TITLES.get(token, token)


def token_meaning(token: str) -> str:
    return TOKEN_MEANINGS.get(token, "")


@cache
def rules_context() -> dict[str, Any]:
    """The same for every reader: drawn once per process."""
    letters = "".join(COLOURS[colour] for colour, _ in EXAMPLE)
    scored = [("prophecy", card, prophecy_words(card, {}),
               prophecies()[card].points(prophecies()[card].requirement.times(letters)))
              for card in EXAMPLE_PROPHECIES]
    scored.append(("temple", EXAMPLE_TEMPLE, temple_words(EXAMPLE_TEMPLE), temples()[EXAMPLE_TEMPLE].score(letters)))
    total = sum(points for *_, points in scored)
    line = " · ".join(f"{kind} {card}: {points}" for kind, card, _, points in scored) + f" · {total} points"
    svg = coatls_svg([{"who": "An example", "coatls": [{"number": 1, "pieces": [f"{c} {k}" for c, k in EXAMPLE],
                                                         "line": line}]}],
                     label="An example cóatl, head to tail", id_prefix="rules")
    return {"example_svg": svg, "example_scored": scored, "example_total": total,
            "example_pieces": ", ".join(f"{colour} {kind}" for colour, kind in EXAMPLE),
            "tokens": [(token, TOKEN_TITLES[token], TOKEN_MEANINGS[token]) for token in TOKEN_TITLES]}
