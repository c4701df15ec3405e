"""A seat's round reports (issue 6), made again on demand from the game's record.

Reports are reproducible: the same record renders the same bytes, so nothing is stored.
Only the seat's own reports are served: a report holds its reader's hand.
"""
from __future__ import annotations

from sqlalchemy.orm import Session

from engine import get_game
from pbem.models import Game, User
from pbem.reports import ReportPdf, pdf_for_record
from pbem.services.accounts import PAPER_SIZES
from pbem.services.errors import Invalid, NotFound
from pbem.services.play import require_seat
from pbem.services.state import game_state, log_lines, record


def scored_rounds(session: Session, game: Game) -> list[int]:
    """The rounds whose report exists (each scored round; the last one's is the final report)."""
    if game.status in (Game.OPEN, Game.ABORTED):
        return []
    state = game_state(session, game)
    return [m.round for m in state.milestones() if m.scored]


def seat_report(session: Session, game: Game, user: User, number: int,
                page_size: str | None = None) -> ReportPdf:
    """The PDF of round `number`'s report for the user's seat.  `page_size`: "A4" or
    "Letter"; None: the reader's own (their profile's paper size)."""
    seat = require_seat(game, user)
    page_size = page_size or user.paper_size
    if page_size not in PAPER_SIZES:
        raise Invalid(f"page size must be one of {', '.join(PAPER_SIZES)}")
    if number not in scored_rounds(session, game):
        raise NotFound(f"there is no report of {get_game(game.kind).round_name} {number} yet")
    full = record(game, log_lines(session, game.id))  # replayed here only; the report is built from the seat's view
    names = {s.name: s.label for s in game.seats if s.name}
    return pdf_for_record(full, seat.name, number, page_size=page_size, title=game.title, names=names,
                          tz=user.time_zone or "UTC")
