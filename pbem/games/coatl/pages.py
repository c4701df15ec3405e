"""What Cóatl's position template needs (templates/games/coatl/game/_position.html): every
card in view with its requirement in words, each seat's board and cóatls as letters, and
the reader's own cards, all from the reader's view; and the choices of its decision forms
(pbem/games/coatl/forms.py)."""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.coatl import forms
from pbem.games.coatl.cards import board_letters, coatl_letters, prophecy_words, temple_words
from pbem.games.coatl.rules import token_meaning, token_title
from pbem.games.coatl.text import view_committed


def page_context(view: Mapping[str, Any]) -> dict[str, Any]:
    options = view.get("options") or {}
    me = view.get("me") or {}
    committed = set(view_committed(view, me.get("seat")))
    seats = [{"seat": seat.get("seat"), "name": seat.get("name"), "points": seat.get("points", 0),
              "hand_size": seat.get("hand_size", 0), "tokens": list(seat.get("tokens") or []),
              "board": board_letters(seat.get("board") or []),
              "committed": [temple_words(card) for card in seat.get("committed") or []],
              "coatls": [{"letters": coatl_letters(coatl.get("pieces") or []),
                          "prophecies": [prophecy_words(card, options) for card in coatl.get("prophecies") or []],
                          "temple": temple_words(coatl["temple"]) if coatl.get("temple") is not None else None,
                          "complete": bool(coatl.get("complete")), "points": coatl.get("points")}
                         for coatl in seat.get("coatls") or []]}
             for seat in view.get("seats") or []]
    return {"row_cards": [prophecy_words(card, options) for card in view.get("row") or []],
            "common_temples": [temple_words(card) for card in view.get("commons") or []],
            "coatl_seats": seats,
            "my_prophecies": [prophecy_words(card, options) for card in me.get("hand") or []],
            "my_draw": [prophecy_words(card, options) for card in me.get("dealt") or []],
            "my_temples": [(temple_words(card), card in committed) for card in me.get("temples") or []],
            "coatl_form": forms.choices(view), "token_title": token_title, "token_meaning": token_meaning}
