"""Azteca's reports (pbem/games/azteca/report.py, templates/games/azteca/reports/): a seeded bot
game's game-turn reports, final report and setup notice, checked against the engine replaying
the record, rendered by the real renderer as mail HTML, text and PDF (read back with pdftotext);
and a reader's report does not change when another seat's secrets do (its chart, its Azteca
cards, its Sacrifice points, its offers, the decks)."""
from __future__ import annotations

import pytest
from markupsafe import escape

from engine.azteca.game import GAME
from engine.core import play_out
from engine.records import replay, replay_steps
from pbem.games import presentation
from pbem.reports import phase_notice, render_html, render_mail, render_pdf, render_text, reports_for_record
from pbem.reports.content import facts_for
from reports_helpers import check_set_equals_alone, pdf_text, squash

WON, DESTROYED = (4, "heuristic"), (7, "random")  # 3-player seeds: Quetzalcoatl's end in turn 9; Tezcatlipoca's in 4
NAMES = ("Ana Xóchitl", "Bo", "Cy")
TITLE = "Pyramids & <friends>"
BASE_KEYS = ("format", "kind", "round", "phase", "game", "reader", "next")


def _record(seed: int, bot: str) -> dict:
    seats = GAME.seating(seed, len(NAMES))
    record = {"game": "azteca", "seed": seed, "players": [{"seat": s, "name": n} for s, n in zip(seats, NAMES)]}
    state = play_out(GAME.new_game(record), [GAME.make_bot(bot, f"{seed}:{i}") for i in range(len(NAMES))])
    return {**record, "orders": state.order_log()}


@pytest.fixture(scope="module")
def record():
    return _record(*WON)


@pytest.fixture(scope="module")
def reports(record):
    return list(reports_for_record(record, title=TITLE))


def after(record, number):
    """The engine right after the Judgement of game turn `number` (the oracle)."""
    for state in replay_steps(record):
        if number in [m.round for m in state.milestones() if m.scored]:
            return state
    raise AssertionError(f"game turn {number} is never judged")


def test_a_report_follows_each_game_turn_and_a_notice_follows_setup(record, reports):
    state = replay(record)
    scored = [m.round for m in state.milestones() if m.scored]
    assert scored == list(range(1, state.round + 1))
    assert [(seat, n) for seat, n, _ in reports] == [(seat, n) for n in scored for seat in state.seats]
    assert [context["kind"] for _, n, context in reports] == ["turn" if n < scored[-1] else "final" for _, n, _ in reports]
    assert [(m.round, m.phase) for m in state.milestones() if not m.scored] == [(1, "setup")]


def test_a_turn_report_gives_the_engines_gods_peoples_and_the_readers_own_secrets(record, reports):
    for seat, number, context in reports:
        if context["kind"] == "final":
            continue
        state = after(record, number)
        view, turn = state.view(seat), state.scores_by_round()[number - 1]
        assert context["gods"]["quetzalcoatl"] == state.quetzalcoatl
        assert context["gods"]["tezcatlipoca"] == state.tezcatlipoca
        for row in context["peoples"]:
            person = state.people[state.seats.index(row["seat"])]
            assert (row["tributes"], row["hand"]) == (person.tributes, len(person.hand))
            assert row["offered"] == turn[row["seat"]]["tezcatlipoca"]
        me = state.people[state.seats.index(seat)]
        assert [card["key"] for card in context["mine"]["cards"]] == sorted(me.hand) == view["me"]["hand"]
        assert (context["mine"]["sacrifice"], context["mine"]["urn"]) == (me.sacrifice, me.urn)
        rolled = context["judgement"]["tezcatlipoca"]
        assert rolled["calm"] == (rolled["total"] >= rolled["card"])
        assert context["headline"].startswith(f"Game turn {number}: Tezcatlipoca ")


def test_the_final_report_ranks_by_the_offers_to_quetzalcoatl(record, reports):
    result = replay(record).result()
    for seat, _, context in reports[-len(NAMES):]:
        final = context["final"]
        assert not final["destroyed"] and context["mine"] is None
        assert [row["seat"] for row in final["ranking"]] == list(result.ranking)
        assert final["winner"]["seat"] == result.winner and final["reader_won"] == (seat == result.winner)
        for row in final["ranking"]:
            detail = result.breakdown[row["seat"]]
            assert (row["score"], row["assimilated"], row["wealth"]) == \
                (detail["quetzalcoatl"], detail["assimilated"], detail["wealth"])


def test_when_tezcatlipoca_wins_everyone_loses():
    """15.3: "If Tezcatlipoca reaches the underworlds, all the players lose"."""
    record = _record(*DESTROYED)
    *_, (seat, _, context) = reports_for_record(record, title=TITLE)
    assert context["final"]["destroyed"] and context["headline"] == "The universe is destroyed"
    text = render_text(context)
    assert "Everyone loses: Tezcatlipoca reached the underworlds" in text and "RANKING" not in text
    assert "Everyone loses" in render_html(context, for_mail=True)


def test_reports_render_as_mail_text_and_pdf_with_their_numbers(record, reports, artifacts, poppler):
    first = reports[0][2]
    last = reports[-1][2]
    for name, context in (("turn", first), ("final", last)):
        mail = render_mail(context)
        html, text, web = squash(mail.html), squash(mail.text), render_html(context)
        assert "<svg" in web and "cid:emblem" in mail.html and "cid:board" in mail.html
        assert str(escape(TITLE)) in mail.html and TITLE in mail.text
        path = artifacts / f"azteca-{name}-{context['reader']['seat']}.pdf"
        path.write_bytes(render_pdf(context))
        printed = squash(pdf_text(path))
        assert squash(context["headline"]) in printed and squash(context["headline"].upper()) in text
        for row in context["peoples"]:
            assert row["name"] in printed and str(escape(row["name"])) in html
            assert f"{row['tributes']} Tribute" in text
        if name == "final":
            for row in context["final"]["ranking"]:
                assert f"{row['who']}: {row['score']}" in text
        else:
            for card in context["mine"]["cards"]:
                assert card["name"] in printed and squash(card["text"][:40]) in text
            assert "YOURS ALONE" in text and f"Sacrifice points held: {context['mine']['sacrifice']}" in text


def test_the_setup_notice_shows_the_valley_and_the_readers_own_chart(record):
    state = replay(record)
    [setup] = [m for m in state.milestones() if not m.scored]
    seat = state.seats[1]
    notice = phase_notice(record, seat, setup.round, setup.phase, title=TITLE)
    assert notice["headline"] == "The population markers are turned face up: the game begins"
    assert notice["board"]["svg"].startswith("<svg") and notice["mine"]["chart"]
    text = render_text(notice)
    assert "YOURS ALONE" in text and "Organisation chart: army A " in text
    assert notice["headline"] in render_html(notice, for_mail=True)


def _context(state, record, seat, base):
    """The reader's report built from `state` (the presentation's part on the content's base)."""
    facts = facts_for(state, record, title=TITLE)
    return presentation("azteca").report_context(state, state.view(seat), dict(base), facts)


def test_another_seats_secrets_never_reach_a_report(record, reports):
    """Another seat's chart, Azteca cards, Sacrifice points and urn, and the order of the decks,
    are changed at the moment of the report: the reader's report is the same, word for word.
    The reader's own chart changed likewise does change it (the check can fail)."""
    seat, number, context = reports[0]
    state = after(record, number)
    base = {key: context[key] for key in BASE_KEYS}
    plain = _context(state, record, seat, base)
    assert plain == context
    r = state.seats.index(seat)
    for o in range(state.n):
        if o == r:
            continue
        twin = state.clone()
        other = twin.people[o]
        other.chart = {"A": [1, 0], "B": [0, 1], "C": [2, 2], "R": [4, 0]}
        other.hand = sorted(other.hand, reverse=True)[:1] + ["raid"] * (len(other.hand) - 1)
        other.sacrifice, other.urn = other.sacrifice + 7, other.urn + 5
        twin.deck.reverse()
        twin.anger.reverse()
        told = _context(twin, record, seat, base)
        assert told == plain, f"{seat}'s report tells {state.seats[o]}'s secrets"
        assert render_text(told) == render_text(plain)
    mine = state.clone()
    mine.people[r].chart = {"A": [1, 0], "B": [0, 1], "C": [2, 2], "R": [4, 0]}
    changed = _context(mine, record, seat, base)
    assert changed != plain and "army C 2 warriors and 2 Jaguar knights" in render_text(changed)


def test_a_seats_report_built_in_the_set_equals_the_one_built_alone(record):
    """Every seat's turn report and notice built from one replay for all the seats
    (content.Moment) equals the one built alone."""
    state = replay(record)
    assert check_set_equals_alone(record) == len(state.seats) * len(state.milestones())
