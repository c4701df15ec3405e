"""Aztlán's presentation: how the service shows Aztlán (pbem/games/__init__.py says what a
presentation is).  Registered in the `pbem.presentations` entry-point group as `aztlan`."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from engine.core import State
from pbem.games import Presentation
from pbem.games.aztlan import drawing, report, sentences

TEMPLATES = Path(__file__).resolve().parents[3] / "templates" / "games" / "aztlan"


def territory_names(state: State) -> dict[int, str]:
    return {t.id: t.name for t in state.board.territories}  # type: ignore[attr-defined]


class Aztlan(Presentation):
    game = "aztlan"
    templates = TEMPLATES
    report_template = "games/aztlan/reports/age.html"
    notice_template = "games/aztlan/reports/notice.html"

    def sentence(self, event: Mapping[str, Any], names: Mapping[str, str], state: State) -> str:
        return sentences.describe(dict(event), dict(names), territory_names(state))

    def event_round(self, event: Mapping[str, Any]) -> Any:
        return event.get("age")

    def seat_title(self, seat: str) -> str:
        return report.PEOPLE_NAMES.get(seat, seat)

    def board_svg(self, state: State, view: Mapping[str, Any], *, clickable: bool = False,
                  highlight: Sequence[Any] = (), id_prefix: str = "b") -> str | None:
        board = state.board  # type: ignore[attr-defined]
        try:
            return drawing.board_svg(board, dict(view), clickable=clickable, highlight=highlight,
                                     id_prefix=id_prefix)
        except ValueError:  # a board without geometry: the territory list shows it
            return None

    def first_order(self, decision: Mapping[str, Any]) -> str | None:
        kind, options = decision["kind"], decision["options"]
        if kind == "power":
            return f"card {options['cards'][0]}"
        if kind == "turn":
            return f"place {options['place'][0]}"
        if kind == "conflict":
            return f"battle {options['won'][0]}" if options["won"] else f"tie {options['tied'][0]}"
        if kind == "reaction":
            return f"accept {options['territory']}"
        if kind == "scoring":
            return "score"
        return None

    def report_context(self, state: State, view: Mapping[str, Any], context: dict[str, Any],
                       facts: Any) -> dict[str, Any]:
        return report.report_context(state, dict(view), context, facts)

    def notice_context(self, state: State, view: Mapping[str, Any], context: dict[str, Any],
                       facts: Any) -> dict[str, Any]:
        return report.notice_context(state, dict(view), context, facts)

    def next_step(self, state: State, view: Mapping[str, Any], seat: str, expected: dict[str, Any],
                  facts: Any) -> dict[str, Any]:
        return report.next_step(state, dict(view), seat, facts)


PRESENTATION = Aztlan()
