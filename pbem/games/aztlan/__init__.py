"""Aztlán's presentation: how the service shows Aztlán (pbem/games/__init__.py says what a
presentation is).  Registered in the `pbem.presentations` entry-point group as `aztlan`."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from engine.core import State
from pbem.games import Presentation
from pbem.games.aztlan import drawing, sentences

TEMPLATES = Path(__file__).resolve().parents[3] / "templates" / "games" / "aztlan"


def territory_names(state: State) -> dict[int, str]:
    return {t.id: t.name for t in state.board.territories}  # type: ignore[attr-defined]


class Aztlan(Presentation):
    game = "aztlan"
    templates = TEMPLATES

    def sentence(self, event: Mapping[str, Any], names: Mapping[str, str], state: State) -> str:
        return sentences.describe(dict(event), dict(names), territory_names(state))

    def board_svg(self, state: State, view: Mapping[str, Any], *, clickable: bool = False,
                  highlight: Sequence[Any] = (), id_prefix: str = "b") -> str | None:
        board = state.board  # type: ignore[attr-defined]
        try:
            return drawing.board_svg(board, dict(view), clickable=clickable, highlight=highlight,
                                     id_prefix=id_prefix)
        except ValueError:  # a board without geometry: the territory list shows it
            return None


PRESENTATION = Aztlan()
