"""Aztlán's presentation: how the service shows Aztlán (pbem/games/__init__.py says what a
presentation is).  Registered in the `pbem.presentations` entry-point group as `aztlan`."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from engine.aztlan.cards import AGES
from engine.aztlan.data import names as packaged_names
from engine.aztlan.orders import Turn
from engine.aztlan.state import CHOOSING, DEVELOPMENT, SCORING
from engine.core import Option, OrderError, State
from pbem.games import Presentation
from pbem.games.aztlan import forms, pages, report, rules, sentences, text

TEMPLATES = Path(__file__).resolve().parents[3] / "templates" / "games" / "aztlan"
# Events that are the reader's own doing (with the reader's seat) or only for the reader.
OWN = frozenset({"chosen", "turn", "tlatoani", "coexist", "battle", "draw", "deck-empty"})


def territory_names(state: State) -> dict[int, str]:
    return {t.id: t.name for t in state.board.territories}  # type: ignore[attr-defined]


class Aztlan(Presentation):
    game = "aztlan"
    templates = TEMPLATES
    decisions_template = "games/aztlan/game/_decisions.html"
    position_template = "games/aztlan/game/_position.html"
    queued_kind = "turn"  # development turns, queued ahead for the age's development phase
    report_template = "games/aztlan/reports/age.html"
    notice_template = "games/aztlan/reports/notice.html"
    report_public_pages = True  # the age's results, with no reader's mark, after the reader's pages
    rules_template = "games/aztlan/rules.html"

    def sentence(self, event: Mapping[str, Any], names: Mapping[str, str], state: State) -> str:
        return sentences.describe(dict(event), dict(names), territory_names(state))

    def round_count(self, state: State) -> int | None:
        return AGES

    def is_news(self, event: Mapping[str, Any], seat: str) -> bool:
        kind = str(event.get("type", ""))
        return not (kind.startswith("my-") or (kind in OWN and event.get("seat") == seat))

    def event_round(self, event: Mapping[str, Any]) -> Any:
        return event.get("age")

    def seat_title(self, seat: str) -> str:
        return report.PEOPLE_NAMES.get(seat, seat)

    def board_svg(self, state: State, view: Mapping[str, Any], *, clickable: bool = False,
                  highlight: Sequence[Any] = (), id_prefix: str = "b", caption: bool = False) -> str | None:
        board = state.board  # type: ignore[attr-defined]
        try:
            return pages.board_svg(board, view, clickable=clickable, highlight=highlight, id_prefix=id_prefix,
                                   title=board.title if caption else None)
        except ValueError:  # a board without geometry: the territory list shows it
            return None

    def choice_places(self, view: Mapping[str, Any]) -> list[Any]:
        """The territories a decision's choice can take: a move's origins (a pawn is placed
        anywhere; once an origin is chosen the page's script outlines its destinations
        instead), the conflicts to settle, the battle to answer, the shores Rafts can join."""
        places: list[Any] = []
        for decision in (view.get("me") or {}).get("decisions", []):
            options = decision.get("options") or {}
            if decision["kind"] == "turn":
                places += options.get("move_from", [])
            elif decision["kind"] == "conflict":
                places += [*options.get("won", []), *options.get("tied", [])]
            elif decision["kind"] == "reaction":
                places.append(options["territory"])
            elif decision["kind"] == "scoring" and options.get("rafts"):
                places += [t for pair in options.get("rafts_pairs", []) for t in pair]
        return list(dict.fromkeys(places))

    def board_text(self, state: State, view: Mapping[str, Any], names: Mapping[str, str]) -> str:
        return text.board_text(state, view, names)

    def hand_text(self, view: Mapping[str, Any]) -> str:
        return text.hand_text(view)

    def turn_text(self, state: State, view: Mapping[str, Any], names: Mapping[str, str]) -> str:
        # Concise (notices carry the pictures): the hand and the choices, the territories
        # left out of the choices since a development turn may name any, and a move's
        # destinations since the board shows the neighbours; the board only for the
        # decisions that name territories.
        parts = [text.hand_text(view), self.options_text(view, leave_out=frozenset({"place", "move_to"}))]
        if view.get("phase") not in (CHOOSING, SCORING):
            parts.insert(0, "The board:\n" + text.board_text(state, view, names))
        return "\n\n".join(part for part in parts if part)

    def page_context(self, state: State, view: Mapping[str, Any]) -> dict[str, Any]:
        return pages.page_context(state, view)

    def setup_options(self) -> tuple[Option, ...]:
        return (Option("board", "default", "the board: its territories, lakes and their shores",
                       choices=tuple(packaged_names("boards"))),
                Option("edition", "default", "the edition: its power and prosperity cards",
                       choices=tuple(packaged_names("editions"))))

    def rule_anchor(self, kind: str) -> str:
        return rules.ANCHORS.get(kind, super().rule_anchor(kind))

    def rules_context(self) -> dict[str, Any]:
        return rules.rules_context()

    def form_orders(self, form: Any) -> str:
        return forms.order_text(form)

    def queue_round(self, state: State) -> int:
        """The current age while its cards are chosen or its development phase runs, else
        the next age."""
        if state.phase in (CHOOSING, DEVELOPMENT):
            return int(state.round)
        if state.round < AGES:
            return int(state.round) + 1
        raise OrderError("the last age's development phase is over: there are no turns left to queue")

    def check_queued(self, state: State, order: Any) -> None:
        """Only development turns, checked against the board (a move goes to a neighbour);
        the rules judge them when their turn comes."""
        line = state.order_text(order)
        if not isinstance(order, Turn):
            raise OrderError(f"'{line}' is not a development turn: only turns ('place ...') can be queued")
        if order.move is not None:
            board = state.board  # type: ignore[attr-defined]
            start, end = (board.index_of[ident] for ident in order.move)
            if end not in board.adjacent[start]:
                raise OrderError(f"'{line}': {order.move[1]} is not adjacent to {order.move[0]}")

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
