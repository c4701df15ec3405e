"""Which reports and notices an advance owes (pbem/services/report_mail.plan), from the
engine's milestones.  The mails themselves: tests/worker/test_worker_reports.py."""
from engine.core import Milestone
from engine.records import replay
from pbem.services.report_mail import plan


def test_the_engine_lists_every_completed_phase_in_order(record):
    passed = replay(record).milestones()
    assert [(m.round, m.phase) for m in passed] == [
        (age, phase) for age in range(1, 6) for phase in ("choosing", "development", "conflict", "scoring")]
    assert [m.round for m in passed if m.scored] == [1, 2, 3, 4, 5]


def test_one_phase_gets_its_notice():
    assert plan([Milestone(2, "choosing")]) == [("notice", 2, "choosing")]


def test_only_the_last_notice_of_an_advance_is_sent():
    assert plan([Milestone(2, "choosing"), Milestone(2, "development")]) == [("notice", 2, "development")]


def test_a_report_supersedes_the_notices_before_it():
    crossed = [Milestone(2, "development"), Milestone(2, "conflict"), Milestone(2, "scoring", True)]
    assert plan(crossed) == [("report", 2, "scoring")]


def test_every_scored_age_gets_its_report_and_a_later_notice_stays():
    crossed = [Milestone(1, "conflict"), Milestone(1, "scoring", True), Milestone(2, "choosing"),
               Milestone(2, "development"), Milestone(2, "conflict"), Milestone(2, "scoring", True),
               Milestone(3, "choosing")]
    assert plan(crossed) == [("report", 1, "scoring"), ("report", 2, "scoring"), ("notice", 3, "choosing")]


def test_any_games_unscored_phase_gets_its_notice_whatever_its_name():
    """Which milestones get a report or a notice comes from `scored` alone: the service reads
    no phase name."""
    assert plan([Milestone(1, "bidding")]) == [("notice", 1, "bidding")]
    assert plan([Milestone(1, "bidding"), Milestone(1, "picking", True)]) == [("report", 1, "picking")]
    assert plan([]) == []
