"""Cóatl's presentation: the board picture, event sentences, the mail BOARD and HAND answers,
the game page's position and decision forms and the reports, all from the reader's view
(engine/coatl/views.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from engine.core import State
from pbem.games import Presentation
from pbem.games.coatl import drawing, forms, pages, report, rules, text

TEMPLATES = Path(__file__).resolve().parents[3] / "templates" / "games" / "coatl"


class CoatlPresentation(Presentation):
    game = "coatl"
    templates = TEMPLATES
    report_template = "games/coatl/reports/round.html"
    notice_template = "games/coatl/reports/notice.html"
    position_template = "games/coatl/game/_position.html"
    decisions_template = "games/coatl/game/_decisions.html"
    rules_template = "games/coatl/rules.html"

    def sentence(self, event: Mapping[str, Any], names: Mapping[str, str], state: State) -> str:
        return text.sentence(event, names)

    def is_news(self, event: Mapping[str, Any], seat: str) -> bool:
        # Private events ("dealt", "drawn", "my-keep") go to their reader only: never news.
        kind = str(event.get("type", ""))
        return not (kind.startswith("my-") or kind in text.PRIVATE or event.get("seat") == seat)

    def board_svg(self, state: State, view: Mapping[str, Any], *, clickable: bool = False,
                  highlight: Sequence[Any] = (), id_prefix: str = "b", caption: bool = False) -> str | None:
        names = {str(seat.get("seat")): str(seat.get("name") or seat.get("seat")) for seat in view.get("seats") or []}
        return drawing.board_svg(view, names, id_prefix=id_prefix, title="Cóatl" if caption else None,
                                 clickable=clickable)

    def board_text(self, state: State, view: Mapping[str, Any], names: Mapping[str, str]) -> str:
        return text.board_text(view, names)

    def hand_text(self, view: Mapping[str, Any]) -> str:
        return text.hand_text(view)

    def page_context(self, state: State, view: Mapping[str, Any]) -> dict[str, Any]:
        return pages.page_context(view)

    def rule_anchor(self, kind: str) -> str:
        return rules.ANCHORS.get(kind, super().rule_anchor(kind))

    def rules_context(self) -> dict[str, Any]:
        return rules.rules_context()

    def form_orders(self, form: Any) -> str:
        return forms.order_text(form)

    def first_order(self, decision: Mapping[str, Any]) -> str | None:
        kind, options = decision.get("kind"), decision.get("options") or {}
        if kind == "keep":
            return f"keep {options['dealt'][0]}" if options.get("dealt") else "keep none"
        if kind == "choose":
            return _choice(options) or "choose none"
        if kind == "turn":
            for space_kind in ("body", "head", "tail"):
                if options.get("take", {}).get(space_kind):
                    return f"take {space_kind} {options['take'][space_kind][0]}"
            return _choice(options.get("choose") or {}) or "pass"
        return None

    def report_context(self, state: State, view: Mapping[str, Any], context: dict[str, Any],
                       facts: Any) -> dict[str, Any]:
        return report.report_context(state, view, context, facts)

    def notice_context(self, state: State, view: Mapping[str, Any], context: dict[str, Any],
                       facts: Any) -> dict[str, Any]:
        return report.notice_context(state, view, context, facts)

    def next_step(self, state: State, view: Mapping[str, Any], seat: str, expected: dict[str, Any],
                  facts: Any) -> dict[str, Any]:
        return report.next_step(state, view, expected, facts)


def _choice(options: Mapping[str, Any]) -> str | None:
    """A Choose action from its options: a face-up card, else the deck's top; None: no room."""
    if not options.get("hand_room"):
        return None
    if options.get("row"):
        return f"choose {options['row'][0]}"
    return "choose deck 1" if options.get("deck") else None


PRESENTATION = CoatlPresentation()
