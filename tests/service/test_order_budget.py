"""The order path's database budget (issue 18): an order submitted through the API costs two
commits (the order, then the advance), no lazy load, and a number of SQL statements that
does not grow with the number of seats or the length of the game.

Counted on the app's own engine (SQLAlchemy events: every statement sent, every commit) and
session (every lazy load), around the real route, in 2- and 4-player Aztlán games played
from the first order to the last, every seat a person with an API token.  A budget, not a
timing: the speed is `make bench` (service.order_submit_per_bare).

The statement budget is PostgreSQL's, the production database: there the rows of one kind
an advance adds (order-log lines, mails) go in one INSERT.  SQLite (`make run`'s embedded
default) inserts them one by one and takes its write lock with a statement of its own, so
there the test holds the commits and lazy loads to the budget, not the statements.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator

import pytest
from sqlalchemy import event
from sqlalchemy.orm import ORMExecuteState, Session

from pbem import live
from pbem.extensions import db
from pbem.models import Game
from pbem.services import accounts, lobby, play
from pbem.testing import first_legal_order
from service_helpers import make_user

# The most an order costs: the token; the game locked, then read with its seats and pending
# orders (after the lock: tests/service/test_lock_reads.py); the order; then the advance: the
# game locked, then read again with everything it works on (seats, people with their last
# vacation's end, reply tokens, pending and queued orders), the vacations that stretch a
# deadline (only if one ends after the decision began), one UPDATE of the game (version,
# decision, deadline) that carries the order log, the orders applied and the seats' changes
# (pbem/writes.py: data-modifying CTEs), and the turn mails of every seat that newly owes a
# decision with the readers' news cursors (one statement however many); the game's last order
# asks for its final report, result mails and league instead of vacations.  Most orders take 9.
STATEMENTS = 12
EARLY = 10  # the first orders of a game; the late ones are its last EARLY orders


@dataclass
class Counted:
    statements: list[str] = field(default_factory=list)
    commits: int = 0
    lazy_loads: list[str] = field(default_factory=list)


@contextmanager
def counting(app: Any) -> Iterator[Counted]:
    """Statements and commits on the app's engine, lazy loads in any session, while open."""
    counted = Counted()
    with app.app_context():
        engine = db.engine

    def statement(conn: Any, cursor: Any, sql: str, params: Any, context: Any, many: bool) -> None:
        counted.statements.append(sql)

    def commit(conn: Any) -> None:
        counted.commits += 1

    def orm_execute(state: ORMExecuteState) -> None:
        if state.is_select and state.lazy_loaded_from is not None:
            counted.lazy_loads.append(str(state.statement))

    listeners = [(engine, "before_cursor_execute", statement), (engine, "commit", commit),
                 (Session, "do_orm_execute", orm_execute)]
    for target, name, function in listeners:
        event.listen(target, name, function)
    try:
        yield counted
    finally:
        for target, name, function in listeners:
            event.remove(target, name, function)


def seated_game(session: Session, client: Any, players: int, seed: int) -> tuple[int, list[Any], list[dict[str, str]]]:
    """A started game of `players` people, each with an API token already used once (its
    first use is stamped with a commit of its own)."""
    users = [make_user(session, f"p{i}@example.com", f"P{i}") for i in range(players)]
    game = lobby.create_game(session, users[0], lobby.NewGame(
        title="Budget", players=players, invites=[f"p{i}@example.com" for i in range(1, players)], seed=seed),
        base_url="http://pbem.test")
    for user in users[1:]:
        lobby.join_game(session, game.id, user)
    headers = [{"Authorization": f"Bearer {accounts.create_api_token(session, user, 'budget')[1]}"}
               for user in users]
    for header in headers:
        assert client.get("/api/me", headers=header).status_code == 200
    return game.id, users, headers


def next_order(session: Session, game_id: int, users: list[Any]) -> tuple[int, str] | None:
    """(player index, a legal order) for a person who owes a decision and has none in."""
    session.expire_all()
    game = session.get(Game, game_id)
    assert game is not None
    if game.status != Game.ACTIVE:
        return None
    for index, user in enumerate(users):
        seen = play.game_view(session, game, user)
        decisions = seen.view["me"]["decisions"]
        if decisions and not seen.my_pending:
            return index, first_legal_order(decisions[0])
    raise AssertionError("nobody owes a decision in a running game")


@pytest.mark.parametrize("players,seed", [(2, 11), (4, 12)])
def test_every_api_order_of_a_whole_game_keeps_the_budget(app, client, session, players, seed):
    game_id, users, headers = seated_game(session, client, players, seed)
    budget = STATEMENTS if session.get_bind().dialect.name == "postgresql" else None
    costs = []
    while (move := next_order(session, game_id, users)) is not None:
        index, order = move
        with counting(app) as counted:
            answer = client.post(f"/api/games/{game_id}/orders", headers=headers[index], json={"orders": order})
        assert answer.status_code == 201, answer.json
        costs.append(counted)
        where = f"order {len(costs)} ({order!r}) of a {players}-player game"
        assert counted.commits == 2, f"{where}: {counted.commits} commits"
        assert counted.lazy_loads == [], f"{where}: lazy loads {counted.lazy_loads}"
        assert budget is None or len(counted.statements) <= budget, \
            f"{where}: {len(counted.statements)} statements\n" + "\n".join(counted.statements)
    assert session.get(Game, game_id).status == Game.FINISHED
    assert len(costs) > 4 * EARLY
    if budget is not None:  # early and late alike: the orders before the end cost what the first ones did
        early = max(len(c.statements) for c in costs[:EARLY])
        late = max(len(c.statements) for c in costs[-EARLY:-1])  # the last one also ends the game
        assert late <= early <= budget


VIEW_STATEMENTS = 3  # the token; the game with its seats; its version, public press and pending orders


def test_an_api_view_keeps_its_budget(app, client, session):
    """A client reads its view before each order: only SELECT statements, on PostgreSQL three (with the
    game's state cached, as after the advance this process made), no lazy load, and the stamp
    it answers with is the one `live.stamp` reads."""
    game_id, users, headers = seated_game(session, client, 4, 13)
    index, order = next_order(session, game_id, users)
    assert client.post(f"/api/games/{game_id}/orders", headers=headers[index], json={"orders": order}).status_code == 201
    for header in headers:
        with counting(app) as counted:
            answer = client.get(f"/api/games/{game_id}/view", headers=header)
        # It writes nothing: its read-only transaction ends with a COMMIT (pbem/transactions.py).
        assert answer.status_code == 200 and counted.commits <= 1 and counted.lazy_loads == []
        assert all(sql.startswith("SELECT") for sql in counted.statements), counted.statements
        if session.get_bind().dialect.name == "postgresql":
            assert len(counted.statements) <= VIEW_STATEMENTS, "\n".join(counted.statements)
        assert answer.json["stamp"] == live.stamp(session, game_id)
