"""The bare order endpoint the order benchmarks measure against (issue 18): the same
commits as an order, with none of the logic.

`POST /bench/bare/<game>/orders` authenticates the API token as the API does, inserts a
pending order and commits (the order), then deletes it and bumps the game's version and
commits (the advance), in the app's own session.  With `queued=True` the second commit is
left to a Celery task, `bench.bare_advance`, sent after the first commit as the order path
sends `pbem.advance_game`.  `GET /bench/bare/<game>` answers the game's version, so a client
can wait for that task as it waits for an advance.

Only the benchmarks add these: `with_bare_routes(app)` (in-process, bench/service.py),
`bench.bare_web:app` for gunicorn and `bench.bare_worker` for the Celery worker
(bench/worker.py).  The production app never has them.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, current_app, jsonify, request
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from pbem.extensions import csrf, db
from pbem.models import Game, PendingOrder, User
from pbem.services import accounts
from pbem.tasks import QUEUE, after_commit, producer

BARE_TASK = "bench.bare_advance"
_QUEUED = "PBEM_BENCH_BARE_QUEUED"


def bare_advance(session: Session, game_id: int) -> int:
    """The advance's commit without the advance: the game's pending orders go, its version moves."""
    session.execute(delete(PendingOrder).where(PendingOrder.game_id == game_id))
    session.execute(update(Game).where(Game.id == game_id).values(version=Game.version + 1))
    session.commit()
    return game_id


def _user() -> User | None:
    scheme, _, secret = request.headers.get("Authorization", "").partition(" ")
    return accounts.user_for_api_token(db.session(), secret.strip()) if scheme.lower() == "bearer" else None


def _blueprint() -> Blueprint:
    bare = Blueprint("bench_bare", __name__, url_prefix="/bench/bare")

    @bare.get("/<int:game_id>")
    def version(game_id: int) -> Any:
        if _user() is None:
            return jsonify(error="unauthorized"), 401
        return jsonify(version=db.session.scalar(select(Game.version).where(Game.id == game_id)))

    @bare.post("/<int:game_id>/orders")
    def order(game_id: int) -> Any:
        user = _user()
        if user is None:
            return jsonify(error="unauthorized"), 401
        text = str((request.get_json(silent=True) or {}).get("orders", ""))[:200]
        session = db.session()
        session.add(PendingOrder(game_id=game_id, seat="bare", text=text, channel="api", user_id=user.id))
        if current_app.config.get(_QUEUED):
            app = current_app._get_current_object()  # type: ignore[attr-defined]
            after_commit(session, lambda: producer(app).send_task(BARE_TASK, args=[game_id], queue=QUEUE))
            session.commit()
        else:
            session.commit()
            bare_advance(session, game_id)
        return jsonify(game=game_id, orders=[text]), 201

    return bare


def with_bare_routes(app: Flask, *, queued: bool = False) -> Flask:
    """`app` with the bare endpoint; `queued`: its second commit is a worker's task."""
    app.config[_QUEUED] = queued
    bare = _blueprint()
    csrf.exempt(bare)  # bearer tokens, as the API
    app.register_blueprint(bare)
    return app
