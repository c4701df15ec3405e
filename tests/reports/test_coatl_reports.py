"""Cóatl's reports (pbem/games/coatl/report.py, templates/games/coatl/reports/): a seeded bot
game's round reports and final report, checked against the engine replaying the record (each
card's points add up to its cóatl's, the totals are the engine's), rendered by the real
renderer as mail HTML, text and PDF (read back with pdftotext); and a reader's report does
not change when another seat's secrets do (its hand, its secret temple, the deck and bags)."""
from __future__ import annotations

import re

import pytest
from markupsafe import escape

from engine.coatl import GAME
from engine.core import play_out
from engine.records import replay, replay_steps
from pbem.games import presentation
from pbem.games.coatl.cards import prophecy_words, temple_words
from pbem.reports import (final_report, phase_notice, render_html, render_mail, render_pdf, render_text,
                          reports_for_record, round_report)
from pbem.reports.content import facts_for
from reports_helpers import check_set_equals_alone, pdf_text, squash
from tests.engine.coatl.coatl_support import coatl, play, position

SEED = 7  # three rounds with completed cóatls (two cóatls in round 6), then the final report
BOTS = ("heuristic", "random", "heuristic")
NAMES = ("Ana Xóchitl", "Bo", "Cy")
TITLE = "Serpents & <friends>"
BASE_KEYS = ("format", "kind", "round", "phase", "game", "reader", "next")


@pytest.fixture(scope="module")
def record():
    seats = GAME.seating(SEED, len(BOTS))
    record = {"game": "coatl", "seed": SEED, "players": [{"seat": s, "name": n} for s, n in zip(seats, NAMES)]}
    state = GAME.new_game(record)
    play_out(state, [GAME.make_bot(bot, f"{SEED}:{i}") for i, bot in enumerate(BOTS)])
    return {**record, "orders": state.order_log()}


@pytest.fixture(scope="module")
def reports(record):
    return list(reports_for_record(record, title=TITLE))


def after(record, number):
    """The engine right after the scoring of round `number` (the oracle), and that scoring."""
    for state in replay_steps(record):
        scored = [m.round for m in state.milestones() if m.scored]
        if number in scored:
            return state, state.scores_by_round()[scored.index(number)]
    raise AssertionError(f"round {number} is never scored")


def test_a_report_follows_each_round_with_a_completed_coatl_and_the_last_is_final(record, reports):
    state = replay(record)
    scored = [m.round for m in state.milestones() if m.scored]
    assert len(scored) >= 3 and len(set(scored)) == len(scored)
    assert [(seat, n) for seat, n, _ in reports] == [(seat, n) for n in scored for seat in state.seats]
    for seat, number, context in reports:
        assert context["kind"] == ("final" if number == scored[-1] else "round")
    assert final_report(record, state.seats[1], title=TITLE) == reports[-len(state.seats) + 1][2]


def test_a_round_report_scores_each_completed_coatl_card_by_card(record, reports):
    two = 0
    for seat, number, context in reports:
        if context["kind"] == "final":
            continue
        state, scoring = after(record, number)
        completed = {(who, c["coatl"]): c["points"] for who, part in scoring.items() for c in part["coatls"]}
        shown = {}
        for group in context["scored"]:
            assert group["points"] == sum(c["points"] for c in group["coatls"]) == scoring[group["seat"]]["points"]
            for c in group["coatls"]:
                assert sum(card["points"] for card in c["cards"]) == c["points"]
                assert [card["number"] for card in c["cards"] if card["kind"] == "prophecy"] == \
                    state.players[state.seats.index(group["seat"])].coatls[c["number"] - 1].prophecies
                shown[(group["seat"], c["number"])] = c["points"]
        assert shown == completed and shown
        two = max(two, len(shown))
        totals = {row["seat"]: row["total"] for row in context["standings"]}
        assert totals == {who: part["total"] for who, part in scoring.items()}
        assert context["me"]["total"] == scoring[seat]["total"]
        mine = state.view(seat)["me"]
        assert [p["number"] for p in context["hand"]["prophecies"]] == mine["hand"]
        assert [t["number"] for t in context["hand"]["temples"]] == mine["temples"]
    assert two >= 2, "the seed was chosen for a round with two cóatls: one report tells both"


def test_the_final_report_ranks_and_scores_every_coatl_card_by_card(record, reports):
    state = replay(record)
    result = state.result()
    for seat, _, context in reports[-len(state.seats):]:
        final = context["final"]
        assert [row["seat"] for row in final["ranking"]] == list(result.ranking)
        assert final["winner"]["seat"] == result.winner and final["reader_won"] == (seat == result.winner)
        for row in final["ranking"]:
            detail = result.breakdown[row["seat"]]
            assert row["score"] == result.scores[row["seat"]] == sum(c["points"] for c in row["coatls"])
            assert (row["cards"], row["best"]) == (detail["cards"], detail["best"])
            for c, scored in zip(row["coatls"], detail["coatls"], strict=True):
                assert sum(card["points"] for card in c["cards"]) == c["points"] == scored["points"]
                assert sum(card["kind"] == "prophecy" for card in c["cards"]) == len(scored["prophecies"])
        assert context["hand"] is None  # the final report is about the game, not a hand to play


def test_every_report_renders_as_mail_text_and_pdf_with_its_numbers(record, reports, artifacts, poppler):
    first = next(context for _, _, context in reports if context["kind"] == "round")
    last = reports[-1][2]
    for name, context in (("round", first), ("final", last)):
        mail = render_mail(context)
        html, text, web = squash(mail.html), squash(mail.text), render_html(context)
        assert "<svg" in web and "cid:emblem" in mail.html
        assert mail.subject.endswith("the final report" if name == "final" else f"round {context['round']}")
        assert str(escape(TITLE)) in mail.html and TITLE in mail.text
        path = artifacts / f"coatl-{name}-{context['reader']['seat']}.pdf"
        path.write_bytes(render_pdf(context, page_size="Letter" if name == "round" else "A4"))
        printed = squash(pdf_text(path))
        groups = context["final"]["ranking"] if name == "final" else context["scored"]
        for group in groups:
            for c in group["coatls"]:
                for card in c["cards"]:
                    said = f"{card['points']} {'point' if card['points'] == 1 else 'points'}: {card['kind']}"
                    assert squash(f"{said} {card['words']}") in text
                    assert re.search(rf"\b{card['kind'][0].upper()}{card['number']}\b", printed)  # its badge
                assert f"= {c['points']} point" in text
                assert f"Cóatl {c['number']} {c['points']}" in printed  # the cóatl's total row
                assert c["line"] in printed  # under its picture: each card's points
        if name == "final":
            for row in context["final"]["ranking"]:
                assert f"{row['name']} {row['score']}" in printed and f"{row['who']}: {row['score']}" in text
                assert str(escape(row["name"])) in html
        else:
            me = context["me"]
            assert f"Total: {me['total']}" in text
            for row in context["standings"]:
                signed = f"+{row['points']}" if row["points"] > 0 else str(row["points"])
                you = " YOU" if row["is_reader"] else ""
                assert f"{row['who']}{you} {signed} {row['completed']} {row['hand_size']} {row['total']}" in printed
            for prophecy in context["hand"]["prophecies"]:
                assert squash(prophecy["words"]) in printed and squash(prophecy["words"]) in text


def test_notices_follow_setup_and_the_end_of_play(record):
    state = replay(record)
    notices = [m for m in state.milestones() if not m.scored]
    assert [m.phase for m in notices] == ["setup", "play"]
    seat = state.seats[0]
    begun = phase_notice(record, seat, notices[0].round, "setup", title=TITLE)
    assert begun["headline"] == "Every hand is kept: the game begins" and begun["hand"]["prophecies"] is not None
    ending = phase_notice(record, seat, notices[1].round, "play", title=TITLE)
    assert "the final turns begin" in ending["headline"] and ending["final_turns"]
    text = render_text(ending)
    assert "THE FINAL TURNS" in text and all(t["who"] in text for t in ending["final_turns"])
    assert ending["headline"] in render_html(ending, for_mail=True).replace("&#39;", "'")


def _contexts(state, record, seat, base):
    """The reader's report built from `state` (the presentation's part on the content's base)."""
    facts = facts_for(state, record, title=TITLE)
    return presentation("coatl").report_context(state, state.view(seat), dict(base), facts)


def test_another_seats_hand_secret_temple_and_draws_never_reach_a_report(record, reports):
    """Another seat's hand, secret temple, the deck and the bags are changed at the moment of
    the report: the reader's report is the same, word for word.  The reader's own hand changed
    likewise does change it (the check can fail)."""
    secrets = 0
    for seat, number, context in reports:
        if context["kind"] == "final" or seat != reports[0][0]:
            continue
        state, _ = after(record, number)
        base = {key: context[key] for key in BASE_KEYS}
        plain = _contexts(state, record, seat, base)
        assert plain == context
        r = state.seats.index(seat)
        for o, other in enumerate(state.players):
            if o == r:
                continue
            twin = state.clone()
            public = {c.temple for p in twin.players for c in p.coatls} | set(other.committed) | set(twin.commons())
            secret = [t for t in other.temples if t not in public]
            secrets += len(secret)
            twin.players[o].hand = [card for card in range(1, 50) if card not in other.hand][:len(other.hand)]
            twin.players[o].temples = [t for t in other.temples if t not in secret] + \
                [t for t in range(1, 16) if t not in public and t not in state.players[r].temples
                 and t not in other.temples][:len(secret)]
            twin.deck.reverse()
            for bag in twin.bags.values():
                bag.reverse()
            told = _contexts(twin, record, seat, base)
            assert told == plain, f"{seat}'s report tells {state.seats[o]}'s secrets"
            assert render_text(told) == render_text(plain)
            text = render_text(plain)
            for temple in secret:
                assert temple_words(temple) not in squash(text)
        mine = state.clone()
        mine.players[r].hand = [card for card in range(1, 50) if card not in state.players[r].hand][:2]
        changed = _contexts(mine, record, seat, base)
        assert changed != plain and prophecy_words(mine.players[r].hand[0], {}).split(":")[0] in render_text(changed)
    assert secrets, "no other seat held a secret temple at any report: the check checked nothing"


def test_a_report_made_again_is_the_same(record, reports):
    seat, number, context = reports[0]
    assert round_report(record, seat, number, title=TITLE) == context


@pytest.mark.parametrize("cards, told", [
    ((2, 1), "Ana and Bo finished on 4 points (Ana 2 cards, best cóatl 4; Bo 1 card, best cóatl 4): "
             "so they rank in this order."),
    ((1, 1), "Ana and Bo finished on 4 points (Ana 1 card, best cóatl 4; Bo 1 card, best cóatl 4): "
             "equal on both too, they share a place."),
])
def test_the_final_report_says_how_the_tie_break_ranked_equal_scores(cards, told):
    """"In case of a tie, the player who has the most Prophecy and Temple cards placed next to
    their completed Cóatls wins. If the tie persists, the player who has the single highest
    scoring Cóatl wins." Equal on all three, the seats share the place."""
    made = {s: [coatl("RYB", complete=True, points=4, prophecies=[16, 17][:n])] for s, n in enumerate(cards)}
    state = position(2, coatls=made)
    play(state, "pass")
    play(state, "pass")  # a round of passes ends the game
    record = {"game": "coatl", "players": [{"seat": "macaw", "name": "Ana"}, {"seat": "quetzal", "name": "Bo"}]}
    facts = facts_for(state, record)
    base = {"format": "pbem-report/1", "kind": "final", "round": state.round, "phase": "final",
            "game": facts.header(), "reader": facts.seat("quetzal"), "next": {}}
    final = presentation("coatl").report_context(state, state.view("quetzal"), base, facts)["final"]
    assert final["tie_breaks"] == [told]
    assert [row["place"] for row in final["ranking"]] == ([1, 2] if cards[0] > cards[1] else [1, 1])


def test_a_seats_report_built_in_the_set_equals_the_one_built_alone(record):
    """Every seat's round report and notice of a Cóatl game built from one replay for all the
    seats (content.Moment) equals the one built alone."""
    state = replay(record)
    assert check_set_equals_alone(record) == len(state.seats) * len(state.milestones())
