"""League pages, forms, CSV and JSON API (docs/leagues.md): what people see and may do, and
what strangers may not."""
from __future__ import annotations

import csv
import io
from datetime import datetime, timezone

from pbem.leagues import members, rounds
from pbem.leagues.league import NewLeague, create_league
from pbem.leagues.models import League, LeagueCorrection
from service_helpers import form_with, submit, web_sign_in

T0 = datetime(2026, 3, 1, 12, tzinfo=timezone.utc)


def played_league(session, organiser, players=8, **given):
    league = create_league(session, organiser, NewLeague(name="Winter <b>cup</b>", game="duel", table_size=4,
                                                         rounds=1, round_days=7, seed="p", **given))
    for i in range(players):
        members.add_bot_entrant(session, league.id, organiser, f"=Bot {i}", "heuristic", T0)
    rounds.start_round(session, league.id, organiser, T0)
    rounds.tick(session, T0)
    return session.get(League, league.id)


def test_a_league_is_created_and_joined_through_the_forms(app, client, session, ana, bo):
    web_sign_in(client, app, "ana@example.com")
    page = submit(client, "/leagues/new", "/leagues/new", name="  Spring\u202e league ", game="duel",
                  table_size="2", rounds="2")
    assert page.status_code == 200 and "League created." in page.text, page.text[-3000:]
    league = session.query(League).one()
    assert league.name == "Spring league" and league.table_size == 2 and league.kind == "duel"
    assert "Spring league" in client.get("/leagues").text
    bad = submit(client, "/leagues/new", "/leagues/new", follow=False, name="x" * 200)
    assert bad.status_code == 422 and "characters" in bad.text
    other = app.test_client()
    web_sign_in(other, app, "bo@example.com")
    joined = submit(other, f"/leagues/{league.id}", f"/leagues/{league.id}/register")
    assert "You are registered." in joined.text and "Withdraw from the league" in joined.text
    # Bo is not an organiser: no tools shown, and posting to them is refused.
    assert "Start round" not in joined.text
    assert other.post(f"/leagues/{league.id}/start", data={"csrf_token": form_with(
        joined.data, "/withdraw").data()["csrf_token"]}).status_code == 403


def test_the_organiser_previews_overrides_and_starts_a_round(app, client, session, ana):
    league = create_league(session, ana, NewLeague(name="Cup", game="duel", table_size=2, rounds=1, seed="o"))
    ids = [members.add_bot_entrant(session, league.id, ana, f"Bot {i}", "random", T0).id for i in range(4)]
    web_sign_in(client, app, "ana@example.com")
    page = client.get(f"/leagues/{league.id}")
    assert "the seating&#39;s pairings (preview)" in page.text and "Start round 1" in page.text
    done = submit(client, f"/leagues/{league.id}", f"/leagues/{league.id}/pairings",
                  tables=f"{ids[0]} {ids[3]}\n{ids[2]} {ids[1]}\n")
    assert "Pairings set." in done.text and "pairings set by an organiser" in done.text
    refused = submit(client, f"/leagues/{league.id}", f"/leagues/{league.id}/pairings", follow=False,
                     tables=f"{ids[0]} {ids[0]}")
    assert refused.status_code == 422
    started = submit(client, f"/leagues/{league.id}", f"/leagues/{league.id}/start")
    assert "Round 1 started." in started.text
    session.expire_all()
    assert [t.seats for t in session.get(League, league.id).round_rows[0].tables] == [[ids[0], ids[3]],
                                                                                      [ids[2], ids[1]]]


def test_standings_render_sort_print_and_export(app, client, session, ana):
    league = played_league(session, ana)
    page = client.get(f"/leagues/{league.id}/standings")
    assert page.status_code == 200 and page.text.count("<tr>") == 9  # a header and eight members
    assert "Winter &lt;b&gt;cup&lt;/b&gt;" in page.text  # escaped
    by_rating = client.get(f"/leagues/{league.id}/standings?sort=rating")
    assert by_rating.status_code == 200 and "Rating ▾" in by_rating.text
    assert "@media print" in client.get("/static/style.css").text
    exported = client.get(f"/leagues/{league.id}/standings.csv")
    rows = list(csv.reader(io.StringIO(exported.text)))
    assert rows[0][:5] == ["place", "player", "status", "points", "games"] and len(rows) == 9
    assert all(row[1].startswith("'=") for row in rows[1:])  # no formula in a spreadsheet
    member = league.members[0]
    chart = client.get(f"/leagues/{league.id}/members/{member.id}/rating")
    assert chart.status_code == 200 and "<polyline" in chart.text
    board = client.get("/leagues/ratings/duel")
    assert board.status_code == 200 and board.text.count("<tr>") == 9
    assert client.get("/leagues/ratings/nosuchgame").status_code == 404


def test_the_api_answers_league_standings_and_pairings_without_the_seed(client, session, ana):
    league = played_league(session, ana)
    answer = client.get(f"/api/leagues/{league.id}").json
    assert answer["name"] == "Winter <b>cup</b>" and len(answer["members"]) == 8 and "seed" not in answer
    standings = client.get(f"/api/leagues/{league.id}/standings").json
    assert len(standings["standings"]) == 8 and standings["standings"][0]["place"] == 1
    assert all(row["mu"] is not None for row in standings["standings"])
    pairings = client.get(f"/api/leagues/{league.id}/pairings").json
    assert [len(t["seats"]) for t in pairings["rounds"][0]["tables"]] == [4, 4]
    assert client.get("/api/leagues/999999/standings").status_code == 404
    assert client.get(f"/api/leagues/{league.id}/standings?round=x").status_code == 422


def test_a_correction_from_the_page_keeps_its_reason(app, client, session, ana, bo):
    league = played_league(session, ana, players=4)
    table = league.round_rows[0].tables[0]
    web_sign_in(client, app, "ana@example.com")
    done = submit(client, f"/leagues/{league.id}", f"/tables/{table.id}/correct", action="annul",
                  reason="a rules mistake")
    assert "annulled" in done.text and "annul: a rules mistake" in done.text
    assert session.query(LeagueCorrection).one().reason == "a rules mistake"
    stranger = app.test_client()
    web_sign_in(stranger, app, "bo@example.com")
    token = form_with(stranger.get(f"/leagues/{league.id}").data, "/signout").data()["csrf_token"]
    assert stranger.post(f"/leagues/{league.id}/tables/{table.id}/correct",
                         data={"csrf_token": token, "action": "restore", "reason": "x"}).status_code == 403


def test_bad_ids_are_not_found(client, session, ana):
    league = played_league(session, ana, players=4)
    for url in ("/leagues/999999", "/leagues/999999/standings", f"/leagues/{league.id}/members/999999/rating",
                "/api/leagues/999999", "/api/leagues/999999/pairings", "/leagues/99999999999999999999"):
        assert client.get(url).status_code == 404, url


def test_the_new_league_form_sets_the_games_options_and_deadlines(app, client, session, ana):
    web_sign_in(client, app, "ana@example.com")
    form = client.get("/leagues/new?game=duel")
    assert form.status_code == 200 and "New league of" in form.text
    # The game's options, each value explained, and the deadline fields, as on the new-game form.
    assert 'name="option_tie_break"' in form.text and 'name="option_rounds"' in form.text and "equal scores share their place" in form.text
    assert 'name="hours_bid"' in form.text and 'name="clock_initial"' in form.text
    done = submit(client, "/leagues/new?game=duel", "/leagues/new", name="Options cup", table_size="2",
                  option_tie_break="none", option_rounds="4", rounds="2", hours_bid="10", hours_pick="", on_missed="wait", vacation="bot")
    assert "League created." in done.text, done.text[-2000:]
    league = session.query(League).one()
    # The game's "rounds" option and the league's rounds in the season are two fields.
    assert league.options == {"tie_break": "none", "rounds": 4} and league.rounds == 2
    assert league.deadline_policy["hours"] == {"bid": 10, "pick": None}
    assert league.deadline_policy["on_missed"] == "wait" and league.deadline_policy["vacation"] == "bot"
    assert "tie break</a>: none (equal scores share their place)" in done.text
    assert "bid 10, pick none; missed: wait" in done.text and "on vacation: a bot plays" in done.text


def test_a_bad_option_on_the_new_league_form_gives_the_games_reason(app, client, session, ana):
    web_sign_in(client, app, "ana@example.com")
    refused = submit(client, "/leagues/new?game=duel", "/leagues/new", follow=False, name="Bad cup",
                     option_tie_break="coin")
    assert refused.status_code == 422 and "tie_break must be one of least-spent, none" in refused.text
    assert 'value="Bad cup"' in refused.text  # the form keeps what was typed
    clock = submit(client, "/leagues/new?game=duel", "/leagues/new", follow=False, name="Clock cup",
                   clock_initial="5")
    assert clock.status_code == 422
    assert session.query(League).count() == 0


def test_an_organiser_adds_an_organiser_from_the_page(app, client, session, ana, bo):
    league = create_league(session, ana, NewLeague(name="Cup", game="duel", table_size=2, rounds=1, seed="g"))
    web_sign_in(client, app, "ana@example.com")
    unknown = submit(client, f"/leagues/{league.id}", "/organisers", follow=False, email="nobody@example.com")
    assert unknown.status_code == 422
    done = submit(client, f"/leagues/{league.id}", "/organisers", email="bo@example.com")
    assert "Organiser added." in done.text and "Organisers: Ana, Bo" in done.text
    other = app.test_client()
    web_sign_in(other, app, "bo@example.com")
    assert "Start round 1" in other.get(f"/leagues/{league.id}").text  # Bo has the tools now
