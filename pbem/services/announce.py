"""What an advance announces to the players, queued before the advance commits (so the mails
exist exactly when the change they announce was committed):

- the opponents' moves, to those who read them as they happen (pbem/services/moves_mail.py);
- the reports and notices of the phases the game completed (pbem/services/report_mail.py),
  which also tell their readers when it is their turn;
- a turn mail to every other person who newly owes a decision, and at the end the result
  (pbem/services/notify.py).
"""
from __future__ import annotations

from typing import Any, Iterable

from sqlalchemy.orm import Session

from pbem.models import Game, Seat
from pbem.services import moves_mail, report_mail
from pbem.services.notify import queue_result_mails, queue_turn_mails


def notify_advanced(session: Session, game: Game, state: Any, newly_waiting: Iterable[Seat],
                    milestones_before: int | None = None, *, locked: bool = False, logged: bool = False) -> None:
    """Queue the mails an advance owes its players (called before the advance commits).
    `milestones_before`: how many phases the game had completed before the advance; the
    phases completed since get their reports and notices (pbem/services/report_mail.py).
    `locked`, `logged`: what the advance holds and did (notify.queue_turn_mails)."""
    moves_mail.after_advance(session, game, state)  # opponents' moves, for "each" readers
    newly_waiting = list(newly_waiting)
    # A report or notice of this moment tells these seats it is their turn: one mail, not two.
    told = (report_mail.record_jobs(session, game, state, milestones_before, newly_waiting)
            if milestones_before is not None else set())
    if state.is_over():
        _results(session, game, state)
        return
    queue_turn_mails(session, game, state, [seat for seat in newly_waiting if seat.name not in told],
                     locked=locked, logged=logged)


def _results(session: Session, game: Game, state: Any) -> None:
    # With report mail on, the final report is the game-over mail of those who want results
    # (its worker falls back to the plain one for a seat it cannot render).
    final = report_mail.final_report_owed(session, game.id, state)
    queue_result_mails(session, game, state, [seat for seat in game.seats
                                              if not (final and report_mail.wants_results(seat))])
