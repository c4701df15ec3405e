"""A seat's age reports (issue 6), made again on demand from the game's record.

Reports are reproducible: the same record renders the same bytes, so nothing is stored.
Only the seat's own reports are served: a report holds its reader's hand.
"""
from __future__ import annotations

from sqlalchemy.orm import Session

from pbem.models import Game, User
from pbem.reports import ReportPdf, pdf_for_record
from pbem.services.accounts import PAPER_SIZES
from pbem.services.errors import Invalid, NotFound
from pbem.services.play import require_seat
from pbem.services.state import game_state, log_lines, record


def scored_ages(session: Session, game: Game) -> list[int]:
    """The ages whose report exists (each scored age; the last one is the final report)."""
    if game.status in (Game.OPEN, Game.ABORTED):
        return []
    return list(range(1, len(game_state(session, game).scores_by_round()) + 1))


def seat_report(session: Session, game: Game, user: User, age: int, page_size: str | None = None) -> ReportPdf:
    """`page_size`: "A4" or "Letter"; None: the reader's own (their profile's paper size)."""
    seat = require_seat(game, user)
    page_size = page_size or user.paper_size
    if page_size not in PAPER_SIZES:
        raise Invalid(f"page size must be one of {', '.join(PAPER_SIZES)}")
    if age not in scored_ages(session, game):
        raise NotFound(f"there is no report of age {age} yet")
    full = record(game, log_lines(session, game.id))  # replayed here only; the report is built from the seat's view
    names = {s.name: s.label for s in game.seats if s.name}
    return pdf_for_record(full, seat.name, age, page_size=page_size, title=game.title, names=names,
                          tz=user.time_zone or "UTC")
