"""The board picture that goes with the answer to BOARD: the game presentation's picture
of the reader seat's view only, as an inline PNG (rasterised like the report mails' board),
and the small HTML alternative that shows it under the text answer.

Without the rasteriser (pyvips, see pbem.reports.render.rasteriser) the SVG itself is
attached instead; a game or board without a picture, or a drawing that fails, sends the
text answer alone.
"""
from __future__ import annotations

import logging
from html import escape
from typing import Any

from engine.core import State
from pbem.games import presentation
from pbem.outbox.messages import MailPart

log = logging.getLogger(__name__)

CID = "board"


def board_picture(state: State, view: dict[str, Any]) -> MailPart | None:
    from pbem.reports.render import MAIL_BOARD_WIDTH, RenderError, rasteriser, svg_to_png

    svg = presentation(state.game).board_svg(state, view, id_prefix="mb", caption=True)
    if svg is None:  # nothing to draw: the text answer says it all
        return None
    if rasteriser() is None:
        return MailPart("board.svg", "image/svg+xml", svg.encode("utf-8"))
    try:
        return MailPart("board.png", "image/png", svg_to_png(svg, MAIL_BOARD_WIDTH * 2), CID)
    except RenderError:
        log.exception("drawing the board for a BOARD answer failed; it goes as text only")
        return None


def reply_html(text: str, parts: list[MailPart]) -> str | None:
    """The reply's text as HTML with the inline pictures under it (None: no inline picture)."""
    inline = [part for part in parts if part.content_id is not None]
    if not inline:
        return None
    pictures = "".join(f'<p><img src="cid:{escape(part.content_id or "")}" alt="The board as your seat sees it" '
                       f'style="max-width:100%;width:600px"></p>' for part in inline)
    return (f'<!doctype html><html><body><pre style="font-family:monospace;white-space:pre-wrap">'
            f"{escape(text)}</pre>{pictures}</body></html>")
