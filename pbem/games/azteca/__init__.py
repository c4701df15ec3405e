"""Azteca's presentation: the board drawing (drawing.py) from the reader's view, and the game
page's position, decision forms and rules page (block "web": pages.py, forms.py, rules.py,
cards.py); mails and reports use the plain presentation's text until Azteca's own are written
(issue 19)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from engine.core import State
from pbem.games import Presentation
from pbem.games.azteca import drawing, forms, pages, rules

TEMPLATES = Path(__file__).resolve().parents[3] / "templates" / "games" / "azteca"


class AztecaPresentation(Presentation):
    game = "azteca"
    templates = TEMPLATES
    position_template = "games/azteca/game/_position.html"
    decisions_template = "games/azteca/game/_decisions.html"
    rules_template = "games/azteca/rules.html"

    def board_svg(self, state: State, view: Mapping[str, Any], *, clickable: bool = False,
                  highlight: Sequence[Any] = (), id_prefix: str = "b", caption: bool = False) -> str | None:
        names = {str(seat.get("seat")): str(seat.get("name") or seat.get("seat")) for seat in view.get("seats") or []}
        return drawing.board_svg(view, names, clickable=clickable, highlight=highlight, id_prefix=id_prefix,
                                 title="Azteca" if caption else None)

    # ---- web: the game page's position and forms, the rules page -----------------------------

    def choice_places(self, view: Mapping[str, Any]) -> list[Any]:
        return forms.choice_places(view)

    def page_context(self, state: State, view: Mapping[str, Any]) -> dict[str, Any]:
        return pages.page_context(view)

    def form_orders(self, form: Any) -> str:
        return forms.order_text(form)

    def rule_anchor(self, kind: str) -> str:
        return rules.ANCHORS.get(kind, super().rule_anchor(kind))

    def rules_context(self) -> dict[str, Any]:
        return rules.rules_context()


PRESENTATION = AztecaPresentation()
