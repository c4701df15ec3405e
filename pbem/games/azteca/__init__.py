"""Azteca's presentation, all from the reader's view: the board drawing (drawing.py); the game
page's position, decision forms and rules page (block "web": pages.py, forms.py, rules.py,
cards.py); event sentences, the mail BOARD and HAND answers, the turn mail's choices
(sentences.py, text.py) and the reports after each game turn (block "mail and reports":
report.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from engine.core import State
from pbem.games import Presentation
from pbem.games.azteca import drawing, examples, forms, pages, report, rules, sentences, text

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

    # --- mail and reports --------------------------------------------------------------------
    report_template = "games/azteca/reports/round.html"
    notice_template = "games/azteca/reports/notice.html"

    def sentence(self, event: Mapping[str, Any], names: Mapping[str, str], state: State) -> str:
        return sentences.sentence(event, sentences.Words(names, state.geo, state.edition))  # type: ignore[attr-defined]

    def is_news(self, event: Mapping[str, Any], seat: str) -> bool:
        return sentences.is_news(event, seat)

    def board_text(self, state: State, view: Mapping[str, Any], names: Mapping[str, str]) -> str:
        return text.board_text(view, names)

    def hand_text(self, view: Mapping[str, Any]) -> str:
        return text.hand_text(view)

    def turn_text(self, state: State, view: Mapping[str, Any], names: Mapping[str, str]) -> str:
        # BOARD and HAND in full (a decision may turn on any public fact or secret of one's own),
        # then the choices of the decision owed.
        return "\n\n".join(part for part in (text.board_text(view, names), text.hand_text(view),
                                               text.choices_text(view)) if part)

    def first_order(self, decision: Mapping[str, Any]) -> str | None:
        return examples.first_order(decision)

    def report_context(self, state: State, view: Mapping[str, Any], context: dict[str, Any],
                       facts: Any) -> dict[str, Any]:
        return report.report_context(state, view, context, facts)

    def notice_context(self, state: State, view: Mapping[str, Any], context: dict[str, Any],
                       facts: Any) -> dict[str, Any]:
        return report.notice_context(state, view, context, facts)

    def next_step(self, state: State, view: Mapping[str, Any], seat: str, expected: dict[str, Any],
                  facts: Any) -> dict[str, Any]:
        return report.next_step(view, expected, facts)


PRESENTATION = AztecaPresentation()
