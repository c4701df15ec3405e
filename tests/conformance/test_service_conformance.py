"""The service half of the conformance suite: every page, mail, report and notice renders for
every moment of a recorded game, for every registered game, and none shows a reader another
seat's secret.

Parametrised over `engine.games()` like the engine half (test_engine_conformance.py), so a
new game is checked through the service as soon as it is registered, with its own
presentation or the plain fallbacks (docs/engine.md, "Adding a game").  For each game, with
its fewest and its most players:

- a game played through the service (people in the seats, signed in on the web, playing
  their random bot's orders through the one order path; in the larger game a service bot
  takes a seat too), checked at every moment that matters: the start, after every order that
  completes a milestone, when a kind of decision is first asked, every few dozen orders
  inside a long phase, and the end.  At each: the game page of every person and of a
  spectator (200, where the game stands, a decision form for each kind the reader owes and
  none otherwise, every player, the reader's history, the result at the end); the API's view
  and history (the reader's view exactly); the mail commands STATUS, BOARD, HAND, HISTORY and
  HELP of every person, mailed to the seat's reply address and answered by the gateway.
  Where the game keeps a plain fallback (the position, the decision forms, BOARD, HAND), it
  must show every fact of the reader's view and every choice offered, however deep.
  Once finished: the mails the game sent (turn mails, opponents' moves, the result), the
  replay page at each of those moments; the OpenAPI document names the game's kinds of
  decision;
- every report and every notice of a recorded game for every seat, as mail, text and
  (reports) PDF;
- twin games: where a seat makes a secret choice while others still owe theirs, two games
  in which it chose differently look the same to every other seat and to spectators, on the
  page, in the API, in the mail answers, and in the reports and notices of the record.
"""
from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

import pytest
from markupsafe import escape

import engine
from engine.core import Game as Rules, State, play_out
from engine.records import replay, replay_steps
from pbem.games import HIDDEN_FACTS, MY_KEYS, SEAT_KEYS, Presentation, presentation
from pbem.mail import render
from pbem.models import Game
from pbem.reports import (final_report, next_step, phase_notice, render_html, render_mail, render_pdf,
                          render_text, reports_for_record)
from pbem.services import play
from pbem.services.kinds import decision_kinds
from pbem.services.state import player_names
from conformance_tables import Table, make_people, same_answer, same_page, seat_table
from test_engine_conformance import other_options
from service_helpers import decision_forms

GAMES = engine.games()
SAMPLE_EVERY = 40  # orders between two moments checked inside a long phase
MAX_ORDERS = 5_000  # far beyond any game's length
COMMANDS = "STATUS\nBOARD\nHAND\nHISTORY\nHELP"
COUNTS = [pytest.param(name, count, id=f"{name}-{count}p")
          for name, game in GAMES.items() for count in sorted({game.min_players, game.max_players})]
EACH_GAME = [pytest.param(name, id=name) for name in GAMES]
# The report twins also with every option away from its default (as the engine half's
# "other-options" games), at the most players: options may open secrets of their own (Azteca's
# deals between two seats).
TWIN_COUNTS = [pytest.param(*param.values, "defaults", id=param.id) for param in COUNTS]
TWIN_COUNTS += [pytest.param(name, game.max_players, "other-options", id=f"{name}-{game.max_players}p-other-options")
                for name, game in GAMES.items() if game.options]


def bots_for(rules: Rules, count: int) -> tuple[str, ...]:
    """The service's bots of a game: none with the fewest players, the stand-in in one seat
    with more."""
    return (rules.stand_in,) if count > rules.min_players else ()


# ---- a moment of a running game ---------------------------------------------------------------

def history_items(html: str) -> list[str]:
    """The history section's entries, as the page shows them."""
    section = html.split('<section class="history">', 1)[1].split("</section>", 1)[0]
    return re.findall(r'<li class="event-[^"]*">(.*?)</li>', section, re.DOTALL)


def check_position(html: str, table: Table, state: State, view: dict[str, Any]) -> None:
    """What every page showing a moment holds: where the game stands, every player, the
    reader's history (one entry per event of the view, the newest first), the result."""
    game = table.game()
    rules = engine.get_game(game.kind)
    assert "Traceback" not in html
    assert f"{rules.round_name.capitalize()} <strong>{state.round}</strong>" in html
    assert f"<strong>{state.phase}</strong> phase" in html
    names = player_names(game)
    for name in names.values():
        assert str(escape(name)) in html
    events = presentation(game.kind).sentences(view.get("events", []), names, state)
    shown = history_items(html)
    assert len(shown) == len(events)
    if events:
        assert str(escape(events[-1]["text"])) in shown[0]
    assert ('<section class="result">' in html) == state.is_over()


def shown_facts(part: Any, leave_out: frozenset[str] = frozenset()) -> set[str]:
    """What a plain fallback must show of a part of a view: every word and number in it, and
    the label of every entry that holds one (labels as people read them, `_` as a space)."""
    if isinstance(part, bool) or part is None:
        return set()
    if isinstance(part, (str, int)):
        return {str(part)}
    if isinstance(part, dict):
        found: set[str] = set()
        for key, value in part.items():
            inner = shown_facts(value) if key not in leave_out else set()
            found |= inner | ({str(key).replace("_", " ")} if inner else set())
        return found
    if isinstance(part, (list, tuple)):
        return set().union(*(shown_facts(item) for item in part))
    return set()


def public_facts(view: dict[str, Any]) -> set[str]:
    return shown_facts(view, HIDDEN_FACTS).union(*(shown_facts(seat, SEAT_KEYS) for seat in view.get("seats", [])))


def missing(facts: set[str], text: str) -> set[str]:
    return {fact for fact in facts if fact not in text}


def check_plain_position(html: str, shown: Presentation, view: dict[str, Any]) -> None:
    """The plain position shows every public fact of the reader's view, however deep (the
    view is all a game gives a reader: what the plain page leaves out, nobody sees), and the
    reader's own; the plain decision form every choice the reader is offered."""
    if shown.position_template == Presentation.position_template:
        position = html.split('<div class="position">', 1)[1].split("<aside", 1)[0]
        assert not missing({str(escape(f)) for f in public_facts(view)}, position), "facts missing from the page"
        mine = shown_facts(view.get("me") or {}, MY_KEYS)
        assert not missing({str(escape(f)) for f in mine}, position), "the reader's facts missing from the page"
    if shown.decisions_template == Presentation.decisions_template:
        for decision, form in zip(view.get("me", {}).get("decisions", []), decision_html(html)):
            choices = {str(escape(f)) for f in shown_facts(decision.get("options") or {})}
            assert not missing(choices, form), f"choices of the {decision['kind']} form missing"


def decision_html(html: str) -> list[str]:
    """Each decision form of the page, as HTML."""
    return re.findall(r'<form[^>]*class="decision".*?</form>', html, re.DOTALL)


def check_page(table: Table, seat: str | None, state: State) -> None:
    client = table.people[seat].client if seat else table.spectator
    page = client.get(table.url)
    assert page.status_code == 200, (seat, page.status_code)
    html = page.data.decode()
    view = state.view(seat)
    check_position(html, table, state, view)
    owed = {d["kind"] for d in (view.get("me") or {}).get("decisions", [])}
    shown = decision_forms(html)
    assert {form.attrs.get("data-kind") for form in shown} == owed, f"{seat}: forms for {owed}"
    assert all(form.action == f"{table.url}/orders" for form in shown)
    assert ("you play <strong" in html) == (seat is not None)
    check_plain_position(html, presentation(state.game), view)


def check_api(table: Table, seat: str | None, state: State) -> None:
    headers = table.people[seat].token if seat else {}
    client = table.spectator
    seen = client.get(f"/api{table.url}/view", headers=headers)
    assert seen.status_code == 200, seen.json
    view = json.loads(json.dumps(state.view(seat)))
    assert seen.json["seat"] == seat and seen.json["view"] == view
    history = client.get(f"/api{table.url}/history", headers=headers)
    assert history.status_code == 200, history.json
    assert [event["data"] for event in history.json["events"]] == view.get("events", [])
    assert all(event["text"].strip() for event in history.json["events"])


def check_mail(table: Table, seat: str, state: State) -> None:
    """STATUS, BOARD, HAND, HISTORY and HELP in one mail, answered from the seat's view."""
    game = table.game()
    shown = presentation(game.kind)
    view = state.view(seat)
    answer = table.ask(seat, COMMANDS)
    heading = render.heading(game, state)
    assert f"{heading}." in answer and f"Board of {heading}:" in answer
    assert shown.hand_text(view) in answer
    lines = shown.event_lines(view.get("events", []), player_names(game), state)
    assert (lines[-1] if lines else "Nothing has happened yet.") in answer
    assert render.HELP_START in answer
    # The plain BOARD and HAND answers give every fact of the view, as the plain page does.
    status, board, hand, *_ = answer.split("\n\n")
    if type(shown).board_text is Presentation.board_text:
        assert not missing(public_facts(view), board), "facts missing from BOARD"
    if type(shown).hand_text is Presentation.hand_text:
        assert not missing(shown_facts(view["me"], MY_KEYS), hand), "the reader's facts missing from HAND"
    kinds = decision_kinds(game.kind)
    owed = [kinds[d["kind"]] for d in view["me"]["decisions"]]
    if state.is_over():
        assert "The game is over" in answer
    elif owed:
        assert all(f"{kind.ask}: {kind.help}" in answer for kind in owed)
    else:
        assert "Nothing is asked of you now." in answer


def check_moment(table: Table) -> None:
    state = table.state()
    for seat in table.people:
        check_page(table, seat, state)
        check_api(table, seat, state)
        check_mail(table, seat, state)
    check_page(table, None, state)
    check_api(table, None, state)


def check_notifications(table: Table) -> None:
    """The mails the game sent its people: a turn mail for a decision owed, the opponents'
    moves to whoever reads them after each advance (lines of the reader's own events, which
    the twin games keep secret), and the result at the end, naming every player and score."""
    game = table.game()
    result, names = table.state().result(), player_names(game)
    kinds = decision_kinds(game.kind)
    for seat, person in table.people.items():
        turns = table.mails(seat, "turn")
        assert turns and all(f"{game.title}: it is your turn to " in body for body in turns)
        assert all(any(kind.ask in body for kind in kinds.values()) for body in turns)
        moves = table.mails(seat, "moves")
        assert bool(moves) == (person.user.opponent_moves == "each"), (seat, person.user.opponent_moves)
        assert all(line.startswith("  ") for body in moves for line in body.split("\n")[1:] if line.strip()
                   and not line.startswith(("Open the game", "http")))
        [over] = table.mails(seat, "result")
        assert all(f"{name}: {result.scores[other]}" in over for other, name in names.items())
        assert "Traceback" not in "".join([*turns, *moves, over])


def check_replay(table: Table, steps: list[int]) -> None:
    """The replay page (public) at each moment checked while the game ran."""
    record = play.finished_record(table.session, table.game())
    total = len(record["orders"])
    for step in steps:
        page = table.spectator.get(f"{table.url}/replay?step={step}")
        assert page.status_code == 200, (step, page.status_code)
        html = page.data.decode()
        assert f"order {step} of {total}" in html
        state = replay({**record, "orders": record["orders"][:step]})
        check_position(html, table, state, state.view(None))


def check_openapi(table: Table, name: str) -> None:
    document = table.spectator.get("/api/openapi.json")
    assert document.status_code == 200
    orders = document.json["paths"]["/api/games/{game_id}/orders"]["post"]["description"]
    for kind in GAMES[name].decision_kinds:
        assert f"{kind.title}: `{kind.syntax}`" in orders
    assert name in document.json["components"]["schemas"]["GameCreate"]["properties"]["game"]["enum"]


@pytest.mark.parametrize("name, count", COUNTS)
def test_every_page_and_mail_answer_renders_at_every_moment(app, session, name, count):
    rules = GAMES[name]
    bots = bots_for(rules, count)
    table = seat_table(app, session, make_people(app, session, count - len(bots)), name, bots=bots)
    check_openapi(table, name)
    checked: list[int] = []
    asked: set[str] = set()
    milestones = 0
    for _ in range(MAX_ORDERS):
        state = table.state()
        steps = len(state.order_log())
        kinds = {d.kind for d in state.decisions(options=False)}
        if (not checked or state.is_over() or len(state.milestones()) > milestones or kinds - asked
                or steps - checked[-1] >= SAMPLE_EVERY):
            check_moment(table)
            checked.append(steps)
            milestones, asked = len(state.milestones()), asked | kinds
        if state.is_over():
            break
        seat = table.next_seat()
        assert seat is not None, "the game waits for nobody"
        table.submit(seat, table.order_for(seat))
    assert table.game().status == Game.FINISHED
    check_notifications(table)
    check_replay(table, checked)


# ---- reports and notices ----------------------------------------------------------------------

REPORT_TITLE = "Reports & <notices>"
LINKS = {"game": "https://pbem.example/games/9", "orders": "https://pbem.example/games/9/orders"}


@cache
def recorded(name: str, count: int, variant: str = "defaults") -> dict[str, Any]:
    """A whole bot game of `name` as a record, its players named (`variant` "other-options":
    every option away from its default)."""
    rules = GAMES[name]
    seed = f"service-conformance:{count}" + ("" if variant == "defaults" else f":{variant}")
    record = {"game": name, "seed": seed,
              "players": [{"seat": seat, "name": f"Player {n} <{seat}>"}
                          for n, seat in enumerate(rules.seating(seed, count), start=1)]}
    if variant == "other-options":
        record["options"] = other_options(rules)
    state = play_out(rules.new_game(record), [rules.make_bot("random", f"{seed}:{s}") for s in range(count)])
    return {**record, "orders": state.order_log()}


def check_rendered(context: dict[str, Any], pictures: bool) -> None:
    """The context as the mail's HTML and text, each naming its reader and saying what the
    game waits for; with `pictures` (a report), the mail as sent (its PNG pictures drawn)
    and its PDF."""
    html, text = render_html(context, for_mail=True), render_text(context)
    name = context["reader"]["name"]
    assert str(escape(name)) in html and name in text
    if context["kind"] != "final":  # the final report gives the result instead
        said = context["next"]["text"]
        assert said in " ".join(text.split()) and str(escape(said)) in " ".join(html.split())
    if pictures:
        mail = render_mail(context)
        assert mail.subject.strip() and "\n" not in mail.subject and mail.text == text
        assert all(picture.startswith(b"\x89PNG") for picture in mail.images.values())
        assert render_pdf(context).startswith(b"%PDF-")


def check_plain_report(context: dict[str, Any], state: State, index: int) -> None:
    """The plain report gives every fact of the round's scoring and, at the end, of where
    each seat's final points came from (the result's breakdown): both public."""
    html, text = (" ".join(rendered.split()) for rendered in (render_html(context), render_text(context)))
    facts = shown_facts(state.scores_by_round()[index]) - {"points", "total"}  # the report's columns
    if context["kind"] == "final":
        facts |= shown_facts(state.result().breakdown)
    assert not missing(facts, text), "facts of the scoring missing from the report's text"
    assert not missing({str(escape(fact)) for fact in facts}, html), "facts of the scoring missing from the report"


@pytest.mark.parametrize("name, count", COUNTS)
def test_every_report_and_notice_renders_for_every_seat(name, count):
    """A report follows each scored milestone, a notice each other one (docs/reports.md);
    the last report is the final one.  Each is rendered for every seat; a report's pictures
    (PNG and PDF, about a second of CPU each) for one seat in turn.  A notice's pictures are
    the same drawing, rasterised as a report's."""
    record = recorded(name, count)
    state = replay(record)
    seats, milestones = list(state.seats), state.milestones()
    scored = [m.round for m in milestones if m.scored]
    reports = list(reports_for_record(record, title=REPORT_TITLE, links=LINKS))
    assert [(seat, number) for seat, number, _ in reports] == [(seat, n) for n in scored for seat in seats]
    for seat, number, context in reports:
        assert context["kind"] == ("final" if number == scored[-1] else GAMES[name].round_name)
        assert context["reader"]["seat"] == seat and context["round"] == number
        check_rendered(context, pictures=seats.index(seat) == scored.index(number) % len(seats))
        if type(presentation(name)).report_context is Presentation.report_context:
            check_plain_report(context, state, scored.index(number))
    for seat in seats:
        assert final_report(record, seat, title=REPORT_TITLE, links=LINKS) == reports[-len(seats) + seats.index(seat)][2]
        assert next_step(record, seat)["text"] == "The game is over. Thank you for playing."
    notices = [m for m in milestones if not m.scored]
    for milestone in notices:
        for seat in seats:
            notice = phase_notice(record, seat, milestone.round, milestone.phase, title=REPORT_TITLE, links=LINKS)
            assert (notice["kind"], notice["round"], notice["phase"]) == ("notice", milestone.round, milestone.phase)
            check_rendered(notice, pictures=False)


# ---- secrets: twin games ------------------------------------------------------------------------

def twin_moments(record: dict[str, Any]) -> list[tuple[int, State]]:
    """(step, state) at the first moment of each kind of secret decision that several seats owe."""
    found: dict[str, tuple[int, State]] = {}
    for step, state in enumerate(replay_steps(record)):
        owed = state.decisions(options=False)
        if len(state.waiting()) > 1 and owed and owed[0].simultaneous and owed[0].kind not in found:
            found[owed[0].kind] = (step, state.clone())
    return list(found.values())


def two_choices(rules: Rules, state: State, s: int, seed: str) -> list[str]:
    """Two different legal order texts of seat index `s` (fewer if the random bot finds one)."""
    texts: list[str] = []
    for attempt in range(30):
        order = rules.make_bot("random", f"{seed}:{attempt}").order(state.clone(), s)
        trial = state.clone()
        trial.apply(trial.seats[s], order)
        if s in trial.waiting():  # not a choice yet (an Azteca card play rides with one): try again
            continue
        text = state.order_text(order)
        if text not in texts:
            texts.append(text)
        if len(texts) == 2:
            break
    return texts


@pytest.mark.parametrize("name, count, variant", TWIN_COUNTS)
def test_no_report_or_notice_shows_a_seat_another_seats_secret(name, count, variant):
    """Twin records, in which one seat chose differently while others still owed their
    secret choices, give every other seat the same reports, notices and next step."""
    rules = GAMES[name]
    record = recorded(name, count, variant)
    moments = twin_moments(record)
    assert moments, "the game never asked a secret choice of several seats at once"
    compared = 0
    for step, state in moments:
        a, *others = state.waiting()
        choices = two_choices(rules, state, a, f"{name}:{step}")
        if len(choices) < 2:
            continue
        prefix = record["orders"][:step]
        bot = rules.make_bot("random", f"{name}:{step}:others")
        answers: list[str] = []
        trial = state.clone()
        trial.apply(trial.seats[a], trial.parse(choices[0])[0])
        for b in [None, *others[:-1]]:
            if b is not None:  # the next seat answers alike in both twins
                order = bot.order(trial.clone(), b)
                trial.apply(trial.seats[b], order)
                answers.append(f"{state.seats[b]}: {trial.order_text(order)}")
            twins = [{**record, "orders": [*prefix, f"{state.seats[a]}: {choice}", *answers]} for choice in choices]
            for reader in (state.seats[o] for o in others):
                seen = [said_to(twin, reader) for twin in twins]
                assert seen[0] == seen[1], f"{reader} is told {state.seats[a]}'s secret choice"
            compared += 1
    assert compared


def said_to(record: dict[str, Any], seat: str) -> list[Any]:
    """Every report and notice of the record for `seat`, rendered, and its next step."""
    state = replay(record)
    said: list[Any] = [next_step(record, seat)]
    for _, _, context in reports_for_record(record, seats=[seat]):
        said += [context, render_text(context)]
    for milestone in state.milestones():
        if not milestone.scored:
            notice = phase_notice(record, seat, milestone.round, milestone.phase)
            said += [notice, render_text(notice)]
    return said


def seen_by(table: Table, seat: str | None) -> list[Any]:
    """Everything the service shows `seat` (None: a spectator) of the game now, without what
    differs between two games anyway: the page, the API's view and history, the mail answers."""
    client = table.people[seat].client if seat else table.spectator
    headers = table.people[seat].token if seat else {}
    page = client.get(table.url)
    assert page.status_code == 200
    seen: list[Any] = [same_page(page.data.decode(), table.game_id)]
    view = client.get(f"/api{table.url}/view", headers=headers).json
    del view["game"]
    seen += [view, client.get(f"/api{table.url}/history", headers=headers).json]
    if seat:
        seen.append(same_answer(table.ask(seat, COMMANDS), table.game_id))
    return seen


def twin_tables(app, session, name: str) -> list[Table]:
    """Two games of `name` with the same people in the same seats, as alike as two games are."""
    people = make_people(app, session, GAMES[name].max_players)
    tables = [seat_table(app, session, people, name, seed=11, title="Twins") for _ in range(2)]
    assert {seat: p.user.id for seat, p in tables[0].people.items()} == \
        {seat: p.user.id for seat, p in tables[1].people.items()}
    return tables


def compare_twins(tables: list[Table], seed: str) -> bool:
    """Seat A makes its secret choice differently in the two games while others still owe
    theirs; every other seat and a spectator must see the same in both, while the others but
    the last answer alike.  A sees its own choice (so the comparison is not blind).  Then A
    chooses alike in both, and the games go on as twins.  Returns whether they were compared."""
    first, second = tables
    state = first.state()
    a, *others = (state.seats[s] for s in state.waiting())
    rules = GAMES[state.game]
    choices = two_choices(rules, state, state.seats.index(a), seed)
    if len(choices) < 2:
        return False
    for table, choice in zip(tables, choices):
        assert table.submit(a, choice).pending == [choice]  # held until the others have chosen
    assert seen_by(first, a) != seen_by(second, a)
    bot = rules.make_bot("random", f"{seed}:others")
    for b in [None, *others[:-1]]:
        if b is not None:
            order = first.order_for(b, bot)
            for table in tables:
                table.submit(b, order)
        for reader in [*others, None]:
            assert seen_by(first, reader) == seen_by(second, reader), \
                f"{reader or 'a spectator'} is shown {a}'s secret choice"
    second.submit(a, choices[0])
    return True


@pytest.mark.parametrize("name", EACH_GAME)
def test_no_page_api_answer_or_mail_answer_shows_a_seat_another_seats_secret(app, session, name):
    """Twin games through the service, people in every seat, at the first moment of each
    kind of secret decision that several seats owe."""
    rules = GAMES[name]
    secret = {kind.name for kind in rules.decision_kinds if kind.simultaneous}
    tables = twin_tables(app, session, name)
    twinned: set[str] = set()
    for step in range(MAX_ORDERS):
        state = tables[0].state()
        if state.is_over() or twinned == secret:
            break
        owed = state.decisions(options=False)
        kind = owed[0].kind
        if owed[0].simultaneous and kind not in twinned and len(state.waiting()) > 1 and not tables[0].pending():
            if compare_twins(tables, f"{name}:{step}"):
                twinned.add(kind)
        seat = tables[0].next_seat()
        order = tables[0].order_for(seat)
        for table in tables:
            table.submit(seat, order)
        assert tables[0].state().order_log() == tables[1].state().order_log()
    assert twinned, "the game never asked a secret choice of several seats at once"
