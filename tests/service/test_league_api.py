"""League writes through the JSON API (docs/api.md, docs/leagues.md): what a member and an
organiser do on the league's page, with a token; and what everyone else is refused."""
from __future__ import annotations

from pbem.leagues.models import League, LeagueCorrection, LeagueMember
from pbem.models import Game
from pbem.services import accounts

OPTIONS = {"rounds": 2, "tie_break": "none"}  # both not the game's defaults
DEADLINES = {"hours": {"bid": 10, "pick": 5}, "on_missed": "wait", "replace_after": 2, "vacation": "bot"}


def token(session, user):
    return {"Authorization": f"Bearer {accounts.create_api_token(session, user, 't')[1]}"}


def new_league(client, headers, **given):
    body = {"name": "Autumn cup", "game": "duel", "table_size": 2, "rounds": 2, "round_days": 10,
            "options": OPTIONS, "deadlines": DEADLINES, **given}
    return client.post("/api/leagues", json=body, headers=headers)


def bots(client, headers, league_id, count):
    answers = [client.post(f"/api/leagues/{league_id}/bots", json={"name": f"Bot {i}", "bot": "random"},
                           headers=headers) for i in range(count)]
    assert all(a.status_code == 201 for a in answers), [a.json for a in answers]
    return [a.json["id"] for a in answers]


def test_a_league_made_by_api_starts_games_with_its_options_and_deadlines(client, session, ana):
    ana_token = token(session, ana)
    made = new_league(client, ana_token, withdrawal="replace", scoring="squares", cap=20,
                      registration_closes_at="2030-01-01T12:00:00+01:00")
    assert made.status_code == 201, made.json
    league = made.json
    assert league["options"] == OPTIONS and league["organisers"] == ["Ana"] and league["withdrawal"] == "replace"
    assert league["deadline_policy"]["hours"] == {"bid": 10, "pick": 5}
    assert league["deadline_policy"]["on_missed"] == "wait" and league["deadline_policy"]["replace_after"] == 2
    assert league["registration_closes_at"].startswith("2030-01-01T11:00")
    bots(client, ana_token, league["id"], 4)
    started = client.post(f"/api/leagues/{league['id']}/rounds", headers=ana_token)
    assert started.status_code == 201, started.json
    assert started.json["number"] == 1 and len(started.json["tables"]) == 2
    for table in started.json["tables"]:
        game = session.get(Game, table["game"])
        assert game.setup["options"] == OPTIONS
        assert game.deadline_policy["hours"] == {"bid": 10, "pick": 5}
        assert game.deadline_policy["on_missed"] == "wait" and game.deadline_policy["vacation"] == "bot"
    # The league's page shows those settings, each value explained.
    page = client.get(f"/leagues/{league['id']}").text
    assert "tie break</a>: none (equal scores share their place)" in page
    assert "bid 10, pick 5; missed: wait" in page


def test_members_register_and_withdraw_by_api(client, session, ana, bo):
    ana_token, bo_token = token(session, ana), token(session, bo)
    league_id = new_league(client, ana_token).json["id"]
    joined = client.post(f"/api/leagues/{league_id}/register", headers=bo_token)
    assert joined.status_code == 201 and joined.json["name"] == "Bo" and joined.json["status"] == "registered"
    assert client.post(f"/api/leagues/{league_id}/register", headers=bo_token).status_code == 409
    assert client.post(f"/api/leagues/{league_id}/register").status_code == 401
    left = client.post(f"/api/leagues/{league_id}/withdraw", headers=bo_token)
    assert left.status_code == 200 and left.json["status"] == "withdrawn"
    assert session.get(LeagueMember, joined.json["id"]).status == LeagueMember.WITHDRAWN
    assert client.post(f"/api/leagues/{league_id}/withdraw", headers=bo_token).status_code == 409
    # An organiser withdraws a member by id; Bo may not withdraw someone else.
    entrant = bots(client, ana_token, league_id, 1)[0]
    assert client.post(f"/api/leagues/{league_id}/withdraw", json={"member": entrant},
                       headers=bo_token).status_code == 403
    done = client.post(f"/api/leagues/{league_id}/withdraw", json={"member": entrant}, headers=ana_token)
    assert done.status_code == 200 and done.json["status"] == "withdrawn"


def test_an_organiser_overrides_the_next_round_by_api(client, session, ana, bo):
    ana_token, bo_token = token(session, ana), token(session, bo)
    league_id = new_league(client, ana_token).json["id"]
    ids = bots(client, ana_token, league_id, 4)
    preview = client.get(f"/api/leagues/{league_id}/next-round", headers=ana_token)
    assert preview.status_code == 200 and preview.json["round"] == 1 and not preview.json["overridden"]
    wanted = [[ids[3], ids[0]], [ids[1], None]]  # ids[2] sits the round out; a bot seat
    set_ = client.put(f"/api/leagues/{league_id}/next-round", json={"tables": wanted}, headers=ana_token)
    assert set_.status_code == 200 and set_.json == {"round": 1, "tables": wanted, "overridden": True}
    twice = client.put(f"/api/leagues/{league_id}/next-round", json={"tables": [[ids[0], ids[0]]]},
                       headers=ana_token)
    assert twice.status_code == 422 and "two tables" in twice.json["message"]
    started = client.post(f"/api/leagues/{league_id}/rounds", headers=ana_token).json
    assert [t["seats"] for t in started["tables"]] == wanted
    # The organisers' tools refuse Bo, and name the league when it does not exist.
    for method, url, body in [("get", "next-round", None), ("put", "next-round", {"tables": wanted}),
                              ("delete", "next-round", None), ("post", "rounds", None),
                              ("post", "bots", {"name": "B", "bot": "random"}),
                              ("post", "organisers", {"email": "bo@example.com"}),
                              ("post", f"members/{ids[0]}/replace", {"email": "bo@example.com"})]:
        refused = client.open(f"/api/leagues/{league_id}/{url}", method=method, json=body, headers=bo_token)
        assert refused.status_code == 403 and refused.json["error"] == "forbidden", (url, refused.json)
        missing = client.open(f"/api/leagues/999999/{url}", method=method, json=body, headers=ana_token)
        assert missing.status_code == 404, (url, missing.json)


def test_an_organiser_adds_organisers_replaces_and_corrects_by_api(client, session, ana, bo):
    ana_token, bo_token = token(session, ana), token(session, bo)
    league_id = new_league(client, ana_token, options={}, deadlines=None).json["id"]
    ids = bots(client, ana_token, league_id, 2)
    unknown = client.post(f"/api/leagues/{league_id}/organisers", json={"email": "nobody@example.com"},
                          headers=ana_token)
    assert unknown.status_code == 422 and "signed in" in unknown.json["message"]
    added = client.post(f"/api/leagues/{league_id}/organisers", json={"email": "bo@example.com"}, headers=ana_token)
    assert added.status_code == 200 and added.json["organisers"] == ["Ana", "Bo"]
    # Bo, an organiser now, starts the round; the random bots finish its game at once.
    started = client.post(f"/api/leagues/{league_id}/rounds", headers=bo_token)
    assert started.status_code == 201
    table_id = session.get(League, league_id).round_rows[0].tables[0].id
    assert session.get(Game, started.json["tables"][0]["game"]).status == Game.FINISHED
    bad = client.post(f"/api/leagues/{league_id}/tables/{table_id}/correct",
                      json={"action": "correct", "reason": "scoring slip", "places": {str(ids[0]): 1}},
                      headers=ana_token)
    assert bad.status_code == 422 and "every seat" in bad.json["message"]
    fixed = client.post(f"/api/leagues/{league_id}/tables/{table_id}/correct",
                        json={"action": "correct", "reason": "scoring slip",
                              "places": {str(ids[0]): 2, str(ids[1]): 1}}, headers=ana_token)
    assert fixed.status_code == 201 and fixed.json["reason"] == "scoring slip"
    assert session.query(LeagueCorrection).one().places == {str(ids[0]): 2, str(ids[1]): 1}
    no_reason = client.post(f"/api/leagues/{league_id}/tables/{table_id}/correct",
                            json={"action": "annul", "reason": ""}, headers=ana_token)
    assert no_reason.status_code == 422
    successor = client.post(f"/api/leagues/{league_id}/members/{ids[0]}/replace", json={"email": "bo@example.com"},
                            headers=ana_token)
    assert successor.status_code == 201 and successor.json["name"] == "Bo"
    assert session.get(LeagueMember, ids[0]).status == LeagueMember.REPLACED


def test_bad_league_bodies_are_refused_with_the_games_reason(client, session, ana):
    ana_token = token(session, ana)
    bad_option = new_league(client, ana_token, options={"tie_break": "coin"})
    assert bad_option.status_code == 422
    assert "tie_break must be one of least-spent, none" in bad_option.json["message"]
    assert new_league(client, ana_token, options={"rounds": 99}).json["message"].startswith("option rounds")
    assert new_league(client, ana_token, board="nowhere").status_code == 422  # no such setup choice
    assert "hours" in new_league(client, ana_token, deadlines={"hours": {"move": 3}}).json["fields"]["deadlines"]
    assert new_league(client, ana_token, table_size=9).json["fields"]["table_size"]
    assert new_league(client, ana_token, game="chess").status_code == 422
    assert new_league(client, ana_token, registration_closes_at="2030-01-01T12:00:00").status_code == 422
    assert new_league(client, ana_token, scoring="elo").status_code == 422
    assert new_league(client, {}).status_code == 401
    assert session.query(League).count() == 0


def test_hostile_text_in_a_league_name_is_cleaned_or_refused(client, session, ana):
    ana_token = token(session, ana)
    nul = new_league(client, ana_token, name="evil\x00")
    assert nul.status_code == 400 and nul.json["error"] == "bad-request"
    made = new_league(client, ana_token, name="\u202eevil\u202c <script>x</script>\u200b")
    assert made.status_code == 201, made.json
    assert made.json["name"] == "evil <script>x</script>"
    assert "<script>x" not in client.get(f"/leagues/{made.json['id']}").text
    for name in ("", "\u200b\u200b", "x" * 101):
        assert new_league(client, ana_token, name=name).status_code == 422, repr(name)
    bot = client.post(f"/api/leagues/{made.json['id']}/bots", json={"name": "\u2066Red\u2069 bot", "bot": "random"},
                      headers=ana_token)
    assert bot.status_code == 201 and bot.json["name"] == "Red bot"
