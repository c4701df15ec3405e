"""The plain report and notice (pbem/reports/plain.py, templates/reports/round.html and
notice.html): what a game with no presentation of its own gets, here the test game Duel
(tests/plugins/pbem-testgame), from a record its bots played.  Checked against the engine
replaying the record: each round's scores, the reader's event lines, what the game waits
for, the result; rendered as mail, text and PDF; and a seat's report holds no other seat's
secret bid (twin games)."""
import re

import pytest

import engine
from engine.core import play_out
from engine.records import replay, replay_steps
from pbem.games import presentation
from pbem.reports import (ReportError, final_report, next_step, phase_notice, render_html, render_mail, render_pdf,
                          render_report, render_text, report_for_record, reports_for_record, round_report)
from reports_helpers import pdf_text, squash

DUEL = engine.get_game("duel")
NAMES = {"red": "Ana", "green": "Bo", "blue": "Cy"}
TITLE = "Bids & <tokens>"
LINKS = {"game": "https://pbem.example/games/9", "orders": "https://pbem.example/games/9/orders"}


def play(seed=11, rounds=3):
    record = {"game": "duel", "seed": seed, "options": {"rounds": rounds},
              "players": [{"seat": seat, "name": name} for seat, name in NAMES.items()]}
    state = DUEL.new_game(record)
    play_out(state, [DUEL.make_bot("random", f"{seed}:{i}") for i in range(len(NAMES))])
    return {**record, "orders": state.order_log()}


@pytest.fixture(scope="module")
def record():
    return play()


@pytest.fixture(scope="module")
def reports(record):
    return list(reports_for_record(record, title=TITLE, links=LINKS))


def after_round(record, number):
    """The engine's state right after round `number`'s scoring (the oracle)."""
    for state in replay_steps(record):
        if len(state.scores_by_round()) == number:
            return state
    raise AssertionError(f"no round {number}")


def test_every_seat_gets_a_report_for_every_round_the_last_one_final(record, reports):
    assert sorted((seat, n) for seat, n, _ in reports) == sorted((s, n) for s in NAMES for n in (1, 2, 3))
    for seat, number, context in reports:
        assert context["kind"] == ("final" if number == 3 else "round")
        assert (context["round"], context["phase"], context["reader"]["seat"]) == (number, "picking", seat)
        assert context["reader"]["who"] == f"{NAMES[seat]} ({seat.capitalize()})"
        assert context["game"]["title"] == TITLE and context["game"]["game"] == DUEL.title
    assert final_report(record, "green", title=TITLE, links=LINKS) == reports[-2][2]


def test_a_round_report_holds_its_scores_and_the_readers_event_lines(record, reports):
    for seat, number, context in reports:
        state = after_round(record, number)
        scored = state.scores_by_round()[number - 1]
        assert {s["seat"]: (s["points"], s["total"]) for s in context["scores"]} == \
            {who: (score["points"], score["total"]) for who, score in scored.items()}
        assert [s["is_reader"] for s in context["scores"]] == [who == seat for who in scored]
        mine = next(s for s in context["scores"] if s["is_reader"])
        assert f"bid {scored[seat]['bid']}" in mine["facts"] and f"token {scored[seat]['token']}" in mine["facts"]
        view = state.view(seat)
        events = [e for e in view["events"] if e["round"] == number]
        assert [e["type"] for e in context["events"]] == [e["type"] for e in events]
        assert "my-bid" in [e["type"] for e in context["events"]]  # the reader's own event is there
        assert context["events"] == presentation("duel").sentences(events, NAMES, state)
        assert context["board"] is None  # Duel draws no board


def test_what_the_game_waits_for_and_the_deadline_only_for_who_owes_it(record):
    from datetime import datetime, timezone
    deadline = datetime(2025, 1, 15, 17, 0, tzinfo=timezone.utc)
    report = round_report(record, "red", 1, tz="Europe/Paris", deadline=deadline)
    assert report["next"]["yours"] and report["next"]["text"] == "It is your turn to bid for this round's tokens."
    assert report["next"]["help"] == "bid N (1 to 5 of your coins)"
    assert report["next"]["deadline"]["local"] == "Wednesday 15 January 2025, 18:00"
    # Mid-picking: one seat's turn; the others are told whom the game waits for.
    cut = next(n for n in range(len(record["orders"])) if replay({**record, "orders": record["orders"][:n]}).phase
               == "picking")
    moment = {**record, "orders": record["orders"][:cut]}
    picker = replay(moment).decisions()[0].seat
    for seat in NAMES:
        expected = next_step(moment, seat, deadline=deadline)
        assert expected["yours"] == (seat == picker) and (expected["deadline"] is not None) == (seat == picker)
        if seat != picker:
            assert expected["text"] == f"Nothing for you to do now: the game waits for {NAMES[picker]} " \
                                       f"({picker.capitalize()})."
    over = next_step(record, "blue")
    assert over["text"] == "The game is over. Thank you for playing." and not over["yours"]


def test_the_final_report_holds_the_result(record, reports):
    result = replay(record).result()
    for seat, _, context in reports:
        if context["kind"] != "final":
            assert context["final"] is None
            continue
        final = context["final"]
        assert [e["seat"] for e in final["ranking"]] == list(result.ranking)
        assert {e["seat"]: (e["score"], e["place"]) for e in final["ranking"]} == \
            {s: (result.scores[s], result.places[s]) for s in result.ranking}
        assert final["winner"]["seat"] == result.winner and final["reader_won"] == (seat == result.winner)
        assert final["tie_break"] == result.tie_break
        text = render_text(context)
        assert "THE FINAL REPORT" in text
        for entry in final["ranking"]:
            assert f"{entry['who']}: {entry['score']}" in text


def test_a_shared_place_says_so():
    """tie_break=none: equal scores share a place (the first seed where they do)."""
    for seed in range(200):
        record = {"game": "duel", "seed": seed, "options": {"rounds": 1, "tie_break": "none"},
                  "players": ["red", "green"]}
        state = DUEL.new_game(record)
        play_out(state, [DUEL.make_bot("minimal"), DUEL.make_bot("minimal")])
        if state.result().shared:
            break
    context = final_report({**record, "orders": state.order_log()}, "green")
    assert context["final"]["winner"] is None and all(e["shared"] for e in context["final"]["ranking"])
    assert "A shared first place." in render_text(context) and "a shared place" in render_html(context)


def test_every_report_renders_as_mail_web_text_and_pdf(reports, artifacts, poppler):
    for seat, number, context in reports[::4]:  # every round, some seats
        name = f"duel-{context['kind']}{number}-{seat}"
        done = render_report(context, page_size="Letter")
        assert done.mail.subject == (f"{DUEL.title} · {TITLE}: the final report" if number == 3 else
                                     f"{DUEL.title} · {TITLE}: the report of round {number}")
        assert done.filename == ("duel-final-report-" if number == 3 else f"duel-round-{number}-report-") + seat + ".pdf"
        web = render_html(context)
        assert "<tokens>" not in done.mail.html + web and "&lt;tokens&gt;" in done.mail.html and "&lt;tokens&gt;" in web
        assert "cid:board" not in done.mail.html and set(re.findall(r"cid:([a-z]+)", done.mail.html)) <= {"emblem"}
        assert set(done.mail.images) <= {"emblem"}
        for s in context["scores"]:
            assert s["who"] in done.mail.text and s["who"] in web
        for event in context["events"]:
            assert event["text"] in done.mail.text
        path = artifacts / f"{name}.pdf"
        path.write_bytes(done.pdf)
        text = squash(pdf_text(path))
        assert context["reader"]["name"] in text and ("The final report" if number == 3 else
                                                      f"The report of round {number}") in text
        for s in context["scores"]:
            assert f"{s['points']:+d}" in text
        (artifacts / f"{name}.mail.html").write_text(done.mail.html, "utf-8")
        (artifacts / f"{name}.txt").write_text(done.mail.text, "utf-8")
    urls = []
    render_pdf(reports[0][2], fetch_log=urls.append)
    assert urls == ["pbem-asset:emblem.svg"]  # no board: nothing else is fetched


def test_notices_follow_the_unscored_phases_only(record, artifacts):
    for number in (1, 2, 3):
        notice = phase_notice(record, "blue", number, "bidding", title=TITLE)
        assert notice["kind"] == "notice" and notice["headline"] == f"Round {number}: the bidding phase is over"
        assert notice["events"][-1]["type"] == "reveal"  # every bid is revealed: the notice's moment
        mail = render_mail(notice)
        assert mail.subject == f"{DUEL.title} · {TITLE}: Round {number}: the bidding phase is over"
        assert notice["next"]["text"] in mail.text and notice["headline"] in mail.html
        with pytest.raises(ValueError):
            render_pdf(notice)
        (artifacts / f"duel-notice{number}-blue.mail.html").write_text(mail.html, "utf-8")
    with pytest.raises(ReportError, match="its report follows"):
        phase_notice(record, "blue", 1, "picking")
    with pytest.raises(ReportError):
        round_report(record, "blue", 4)
    with pytest.raises(ReportError):
        round_report(record, "purple", 1)
    with pytest.raises(ReportError):
        final_report({**record, "orders": record["orders"][:5]}, "blue")


# ---- secrecy: a bid stays secret until every bid is in ---------------------------------------

def twin_bids(record, number, bidder):
    """Two records cut in round `number`'s bidding right after `bidder`'s bid, before the last
    bid is in, that differ only in that bid; None if the record has no such moment."""
    for cut in range(1, len(record["orders"]) + 1):
        base = {**record, "orders": record["orders"][:cut]}
        state = replay(base)
        seat, text = record["orders"][cut - 1].split(": ")
        if seat == bidder and state.round == number and state.phase == "bidding":
            coins = int(text.split()[1])
            other = 1 if coins != 1 else 2
            return base, {**base, "orders": base["orders"][:-1] + [f"{bidder}: bid {other}"]}
    return None


def told(moment, seat, number):
    """Everything `seat` is told in mail at `moment` (a record): the report of round
    `number` and the notice after its bidding, each with what is expected at `moment`, as
    report mail sends them."""
    out = []
    for context in (round_report(moment, seat, number, title=TITLE), phase_notice(moment, seat, number, "bidding")):
        context["next"] = next_step(moment, seat, title=TITLE)
        out += [context, render_html(context), render_html(context, for_mail=True), render_text(context)]
    return out


@pytest.mark.parametrize("number", [2, 3])
def test_another_seats_bid_never_changes_what_a_reader_is_told(record, number):
    bidder = "green"  # bots bid in seat order: green's bid is in, blue's is not yet
    base, twin = twin_bids(record, number, bidder)
    assert replay(base).view(bidder)["me"]["bid"] != replay(twin).view(bidder)["me"]["bid"]  # a real twin
    for reader in NAMES:
        if reader == bidder:
            continue
        assert replay(base).view(reader) == replay(twin).view(reader)  # what the reader may see is the same...
        assert told(base, reader, number - 1) == told(twin, reader, number - 1)  # ...and what it is told
    assert [s["seat"] for s in next_step(base, "red")["waiting_for"]] == ["blue"]  # who has not bid yet is public


def test_a_report_made_again_from_the_record_is_the_same(record):
    one = report_for_record(record, "red", 2, title=TITLE, page_size="A4")
    two = report_for_record(record, "red", 2, title=TITLE, page_size="A4")
    assert one.context == two.context and one.mail == two.mail and one.pdf.startswith(b"%PDF-")
