"""Azteca's presentation: the board drawing (drawing.py) from the reader's view; pages, mails
and reports use the plain presentation's text until Azteca's own are written (issue 19)."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.core import State
from pbem.games import Presentation
from pbem.games.azteca import drawing


class AztecaPresentation(Presentation):
    game = "azteca"

    def board_svg(self, state: State, view: Mapping[str, Any], *, clickable: bool = False,
                  highlight: Sequence[Any] = (), id_prefix: str = "b", caption: bool = False) -> str | None:
        names = {str(seat.get("seat")): str(seat.get("name") or seat.get("seat")) for seat in view.get("seats") or []}
        return drawing.board_svg(view, names, clickable=clickable, highlight=highlight, id_prefix=id_prefix,
                                 title="Azteca" if caption else None)


PRESENTATION = AztecaPresentation()
