"""Clocks (docs/deadlines.md, "Clocks"): a reserve per seat that starts at the initial hours,
is charged the time a decision took beyond its free hours, gains the increment after each
decision and is capped; a seat whose reserve runs out misses the deadline as any other.
Played with Duel (a secret bid by every seat, then picks in turn), the tick as production
runs it, and the time moved by the tick's clock."""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from pbem.models import Game, User, now
from pbem.services import deadlines, lobby, play
from pbem.services.clock import reserve_of
from pbem.services.errors import Invalid
from pbem.services.locking import lock_game
from pbem.services.schedule import schedule
from pbem.services.state import game_state
from deadline_helpers import HOUR, SECOND, decisions, fresh, log, mails, make_game, make_user, owes, seat_of, tick
from service_helpers import submit, web_sign_in

CLOCK = {"initial": 10, "increment": 4, "maximum": 16}
SLACK = timedelta(minutes=1)  # the real time a test's orders take, charged to the reserves


def duel(session, ana: User, bo: User | None = None, **clock) -> Game:
    """A started Duel under a clock: Ana against Bo, or against a bot."""
    policy = {"clock": {**CLOCK, **clock}}
    if bo is None:
        return make_game(session, ana, game="duel", players=2, bots=("heuristic",), deadlines=policy)
    game = make_game(session, ana, game="duel", players=2, bots=(), invites=["bo@example.com"], deadlines=policy)
    lobby.join_game(session, game.id, bo)
    return fresh(session, game)


def play_own(session, game: Game, user: User) -> None:
    """The person's lowest bid, or highest token pick, for what they owe now."""
    decision = decisions(session, game, user)[0]
    options = decision["options"]
    order = f"bid {options['low']}" if decision["kind"] == "bid" else f"pick {max(options['tokens'])}"
    play.submit_for_user(session, game.id, user, order, channel="api")


def reserve(session, game: Game, user: User) -> timedelta:
    clock = deadlines.policy_of(fresh(session, game)).clock
    return timedelta(seconds=reserve_of(seat_of(session, game, user), clock))


def began_ago(session, game: Game, span: timedelta) -> None:
    """The current decision began `span` earlier than it did (its deadlines move with it)."""
    locked = lock_game(session, game.id)
    locked.decision_at -= span
    schedule(session, locked, now(), game_state(session, locked))
    session.commit()


def until_owed(session, game: Game, absent: User, players: list[User], kind: str) -> None:
    """Everyone plays at once until `absent` owes a decision of `kind`."""
    for _ in range(50):
        if owes(session, game, absent) == kind:
            return
        mover = next(p for p in players if owes(session, game, p))
        play_own(session, game, mover)
    raise AssertionError(f"{kind} never came")


def test_the_reserve_grows_by_the_increment_and_stops_at_the_maximum(session, ana):
    game = duel(session, ana)
    assert owes(session, game, ana) == "bid"
    assert reserve(session, game, ana) == 10 * HOUR  # the initial reserve
    assert game.deadline_at == game.decision_at + 10 * HOUR  # no free hours: the reserve alone
    seen = []
    for _ in range(4):  # each of Ana's decisions played at once: + 4 hours, up to 16
        play_own(session, game, ana)
        game = fresh(session, game)
        assert owes(session, game, ana), "the bot plays at once: Ana owes her next decision"
        seen.append(reserve(session, game, ana))
        assert seat_of(session, game, ana).deadline_at == game.decision_at + seen[-1] == game.deadline_at
    assert 14 * HOUR - SLACK <= seen[0] <= 14 * HOUR
    assert seen[1:] == [16 * HOUR] * 3  # capped


def test_the_time_a_decision_takes_comes_from_the_reserve_after_its_free_hours(session, ana):
    game = duel(session, ana, per_turn=2)
    assert game.deadline_at == game.decision_at + 12 * HOUR  # 2 free hours + the 10 in reserve
    began_ago(session, game, 6 * HOUR)  # Ana bids 6 hours into the decision: 4 from the reserve
    play_own(session, game, ana)
    assert 10 * HOUR - SLACK <= reserve(session, game, ana) <= 10 * HOUR  # 10 - 4 + 4


def test_a_late_seats_reserve_runs_out_and_its_deadline_passes_on_its_own_clock(session, ana, bo):
    game = duel(session, ana, bo)
    t0 = game.decision_at
    play_own(session, game, bo)  # Bo's bid is in at once; Ana's clock runs on alone
    game = fresh(session, game)
    assert seat_of(session, game, ana).deadline_at == t0 + 10 * HOUR == game.deadline_at
    assert tick(session, t0 + 10 * HOUR - SECOND).defaulted == []
    report = tick(session, t0 + 10 * HOUR)
    ana_seat, bo_seat = seat_of(session, game, ana).name, seat_of(session, game, bo).name
    assert report.defaulted == [(game.id, ana_seat)]
    assert [by for seat, _, by in log(session, game)[:2] if seat == ana_seat] == ["default"]
    # Ana's reserve ran out: she starts her next decision with one increment; Bo kept his, plus one.
    assert reserve(session, game, ana) == 4 * HOUR
    assert 14 * HOUR - SLACK <= reserve(session, game, bo) <= 14 * HOUR
    # The picks, played at once, then the next secret bid: each seat is due by its own reserve.
    until_owed(session, game, ana, [ana, bo], "bid")
    game = fresh(session, game)
    t1, ana_left, bo_left = game.decision_at, reserve(session, game, ana), reserve(session, game, bo)
    assert ana_left < bo_left
    assert seat_of(session, game, ana).deadline_at == t1 + ana_left == game.deadline_at
    assert seat_of(session, game, bo).deadline_at == t1 + bo_left
    report = tick(session, t1 + ana_left)
    assert report.defaulted == [(game.id, ana_seat)]  # Bo's time has not run out: he still owes his bid
    game = fresh(session, game)
    assert owes(session, game, bo) == "bid" and game.deadline_at == t1 + bo_left
    assert tick(session, t1 + bo_left).defaulted == [(game.id, bo_seat)]


def test_each_seat_is_reminded_by_its_own_deadline_with_its_clock(session, ana, bo):
    game = duel(session, ana, bo, initial=60, increment=12, maximum=72)
    t0 = game.decision_at
    began_ago(session, game, 20 * HOUR)
    play_own(session, game, bo)  # Bo's bid after 20 of his 60 hours: 40 + 12 = 52 left
    tick(session, t0 + 60 * HOUR)  # Ana's bid is played by the default: 0 + 12
    until_owed(session, game, ana, [ana, bo], "bid")
    game = fresh(session, game)
    t1 = game.decision_at
    ana_due, bo_due = seat_of(session, game, ana).deadline_at, seat_of(session, game, bo).deadline_at
    assert ana_due - t1 <= 24 * HOUR < 48 * HOUR <= bo_due - t1  # Ana's window is too short for "24 hours left"
    before = len(mails(session, topic="reminder"))
    ana_seat, bo_seat = seat_of(session, game, ana).name, seat_of(session, game, bo).name
    assert tick(session, ana_due - 2 * HOUR - SECOND).reminded == []
    assert tick(session, ana_due - 2 * HOUR + SECOND).reminded == [(game.id, ana_seat)]  # Ana's, not Bo's
    assert tick(session, ana_due - HOUR).reminded == []  # once
    assert tick(session, ana_due).defaulted == [(game.id, ana_seat)]  # Ana misses; Bo's clock runs on
    assert tick(session, bo_due - 24 * HOUR - SECOND).reminded == []
    assert tick(session, bo_due - 24 * HOUR + SECOND).reminded == [(game.id, bo_seat)]
    assert tick(session, bo_due - 2 * HOUR + SECOND).reminded == [(game.id, bo_seat)]
    sent = mails(session, topic="reminder")[before:]
    assert [m.to_address for m in sent] == ["ana@example.com", "bo@example.com", "bo@example.com"]
    # Each says the time really left to its reader, and the reader's clock.
    assert "in about 2 hours" in sent[0].body and "Your clock:" in sent[0].body
    assert "in about 24 hours" in sent[1].body and "each decision adds 12 hours, up to 72 hours" in sent[1].body


def test_a_paused_games_clocks_stand_still(session, ana, bo):
    game = duel(session, ana, bo)
    began_ago(session, game, 6 * HOUR)
    game = fresh(session, game)
    t0, paused_at = game.decision_at, now()
    deadlines.pause_game(session, game.id, ana, paused_at)
    assert tick(session, t0 + 100 * HOUR).defaulted == []  # no deadline passes while paused
    play_own(session, game, ana)  # Ana bids while paused: her clock stopped at the pause
    assert seat_of(session, game, ana).clock_acted_at == paused_at
    resumed_at = paused_at + 20 * HOUR
    deadlines.resume_game(session, game.id, ana, resumed_at)
    game = fresh(session, game)
    bo_due = seat_of(session, game, bo).deadline_at
    assert bo_due - (t0 + 10 * HOUR) >= resumed_at - paused_at  # Bo gets the paused time back
    assert tick(session, bo_due - SECOND).defaulted == []
    assert tick(session, bo_due).defaulted == [(game.id, seat_of(session, game, bo).name)]
    # The bids are in: Ana was charged the 6 hours before the pause only (10 - 6 + 4); Bo ran out.
    assert 8 * HOUR - SLACK <= reserve(session, game, ana) <= 8 * HOUR
    assert reserve(session, game, bo) == 4 * HOUR

def test_withdrawn_orders_run_the_clock_again(session, ana, bo):
    game = duel(session, ana, bo)
    play_own(session, game, ana)
    assert seat_of(session, game, ana).clock_acted_at is not None
    assert play.withdraw(session, seat_of(session, game, ana)) == 1
    game = fresh(session, game)
    assert seat_of(session, game, ana).clock_acted_at is None and owes(session, game, ana) == "bid"
    assert game.deadline_at == game.decision_at + 10 * HOUR


def test_who_takes_over_a_seat_starts_with_the_initial_reserve(session, ana, bo):
    game = duel(session, ana, bo)
    game.deadline_policy = {**game.deadline_policy, "replace_after": 1}
    session.commit()
    play_own(session, game, ana)
    bo_seat = seat_of(session, game, bo).name
    assert tick(session, fresh(session, game).deadline_at).offered == [(game.id, bo_seat)]
    assert reserve(session, game, bo) < 10 * HOUR  # Bo's ran out
    cy = make_user(session, "cy@example.com", "Cy")
    deadlines.take_over(session, game.id, cy, bo_seat, now())
    assert reserve(session, game, cy) == 10 * HOUR


@pytest.mark.parametrize("clock, message", [
    ({"initial": 20, "increment": 4, "maximum": 16}, "initial (20 hours) is more than its maximum"),
    ({"initial": 10, "increment": 20, "maximum": 16}, "increment (20 hours) is more than its maximum"),
    ({"initial": 10, "increment": 0, "maximum": 16}, "increment (the hours each decision adds) must be 1 to 336"),
    ({"initial": 10, "increment": 4}, "the clock needs maximum"),
    ({"initial": 10, "increment": 4, "maximum": 400}, "maximum (the most a reserve may hold) must be 1 to 336"),
    ({"initial": 10, "increment": 4, "maximum": 16, "per_turn": -1}, "per_turn"),
    ({"initial": True, "increment": 4, "maximum": 16}, "initial"),
    ({"initial": "10", "increment": 4, "maximum": 16}, "initial"),
    ({"initial": 10, "increment": 4, "maximum": 16, "bonus": 1}, "unknown clock setting 'bonus'"),
    ([10, 4, 16], "initial, increment and maximum"),
])
def test_invalid_clock_settings_are_refused(session, ana, clock, message):
    with pytest.raises(Invalid) as refused:
        lobby.deadline_policy({"clock": clock}, "duel")
    assert message in str(refused.value)


def test_the_api_refuses_a_bad_clock_and_creates_a_game_with_a_good_one(app, client, session, ana):
    from pbem.services import accounts
    headers = {"Authorization": f"Bearer {accounts.create_api_token(session, ana, 'test')[1]}"}
    body = {"title": "Clocked", "game": "duel", "players": 2, "bots": ["heuristic"]}
    for clock in ({"initial": 20, "increment": 4, "maximum": 16}, {"initial": 10, "increment": 4},
                  {"initial": "x", "increment": 4, "maximum": 16}, {"initial": 10, "increment": 4, "maximum": 16,
                                                                     "extra": 1}):
        answer = client.post("/api/games", headers=headers, json={**body, "deadlines": {"clock": clock}})
        assert answer.status_code in (400, 422), (clock, answer.status_code)
        assert answer.json and "clock" in str(answer.json), answer.json
    assert session.scalar(select(func.count()).select_from(Game)) == 0  # nothing made
    answer = client.post("/api/games", headers=headers, json={**body, "deadlines": {"clock": {**CLOCK, "per_turn": 1}}})
    assert answer.status_code == 201, answer.json
    game_id = answer.json["id"]
    shown = client.get(f"/api/games/{game_id}/deadline", headers=headers).json
    assert shown["policy"]["clock"] == {**CLOCK, "per_turn": 1}
    game = session.get(Game, game_id)
    mine = seat_of(session, game, ana).name
    assert shown["clocks"][mine]["reserve_hours"] == 10
    assert shown["clocks"][mine]["deadline"]["utc"].startswith(
        (game.decision_at + 11 * HOUR).strftime("%Y-%m-%dT%H:%M"))
    assert shown["deadline"] == shown["clocks"][mine]["deadline"]


def test_the_new_game_form_takes_the_clock_and_the_page_and_turn_mail_show_it(app, client, session):
    web_sign_in(client, app, "ana@example.com")
    refused = submit(client, "/games/new?game=duel", "/games/new", title="Clocked", game="duel", players="2", bots="1",
                     clock_initial="30", clock_increment="4", clock_maximum="16")
    assert refused.status_code == 422 and "initial (30 hours) is more than its maximum" in refused.data.decode()
    assert session.scalar(select(func.count()).select_from(Game)) == 0
    submit(client, "/games/new?game=duel", "/games/new", title="Clocked", game="duel", players="2", bots="1",
           clock_initial="10", clock_increment="4", clock_maximum="16")
    game = session.scalar(select(Game))
    assert deadlines.policy_of(game).clock.maximum == 16
    page = client.get(f"/games/{game.id}").data.decode()
    assert "Clocks:" in page and "10.0 hours</strong> in reserve" not in page and "10 hours</strong> in reserve" in page
    turn = next(m for m in mails(session, to="ana@example.com") if m.topic == "turn")
    assert "Your clock: 10 hours in reserve; each decision adds 4 hours, up to 16 hours." in turn.body
    assert "Due by" in turn.body
