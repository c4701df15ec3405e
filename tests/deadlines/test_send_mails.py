"""`send_mails` (the advance's turn and result mails, written with Core statements) and the
writes sent with it (`pbem.writes.together`): on PostgreSQL one statement, on SQLite one by
one; either way the same rows as `send_mail` writes, each outbox row with its own delivery row."""
from __future__ import annotations

from sqlalchemy import event, literal, select

from deadline_helpers import two_humans
from pbem.extensions import db
from pbem.models import OutboxMessage, Seat
from pbem.outbox.marker import with_marker
from pbem.outbox.messages import Mail, queued_keys, send_mails
from pbem.outbox.models import MailDelivery
from pbem.writes import Write, bound, row_update, row_write, together


def test_several_mails_each_with_its_delivery_row_and_a_write_sent_with_them(app, session, ana, bo):
    game = two_humans(session, ana, bo)
    seat = session.scalars(select(Seat).where(Seat.game_id == game.id, Seat.user_id == ana.id)).one()
    cursor = row_update(Seat.__table__, "cursor0", ("events_reported",))
    statements = []
    with app.app_context():
        engine = db.engine

    def count(conn, cursor_, sql, params, context, many):
        statements.append(sql)

    mails = [Mail("ana@example.com", "First\nline", "one", "turn", reply_to="orders+a@pbem.test", key="k:1"),
             Mail("bo@example.com", "Second", "two", "result"),  # no key, no Reply-To: no delivery row
             Mail("bo@example.com", "Third", "three", "turn", key="k:3")]
    event.listen(engine, "before_cursor_execute", count)
    try:
        ids = send_mails(session, mails, writes=[Write(cursor, bound("cursor0", {"id": seat.id, "events_reported": 41}))])
    finally:
        event.remove(engine, "before_cursor_execute", count)
    session.commit()

    assert len(statements) == (1 if session.get_bind().dialect.name == "postgresql" else 6)
    rows = {row.id: row for row in session.scalars(select(OutboxMessage).where(OutboxMessage.id.in_(ids)))}
    assert [(rows[i].to_address, rows[i].subject, rows[i].topic) for i in ids] == [
        ("ana@example.com", "First line", "turn"), ("bo@example.com", "Second", "result"),
        ("bo@example.com", "Third", "turn")]
    assert rows[ids[0]].body == with_marker("one") and rows[ids[1]].body == "two" and rows[ids[2]].body == "three"
    deliveries = {row.outbox_id: row for row in session.scalars(select(MailDelivery).where(MailDelivery.outbox_id.in_(ids)))}
    assert set(deliveries) == {ids[0], ids[2]}
    assert (deliveries[ids[0]].key, deliveries[ids[0]].reply_to, deliveries[ids[0]].attempts) == \
        ("k:1", "orders+a@pbem.test", 0)
    assert (deliveries[ids[2]].key, deliveries[ids[2]].reply_to) == ("k:3", None)
    assert queued_keys(session, ["k:1", "k:3", "k:2"]) == {"k:1", "k:3"}
    session.expire_all()
    assert session.get(Seat, seat.id).events_reported == 41  # the write went with them


def test_no_mails_still_sends_the_writes(session, ana, bo):
    game = two_humans(session, ana, bo)
    seat = session.scalars(select(Seat).where(Seat.game_id == game.id, Seat.user_id == bo.id)).one()
    cursor = row_update(Seat.__table__, "cursor0", ("events_reported",))
    assert send_mails(session, [], writes=[Write(cursor, bound("cursor0", {"id": seat.id, "events_reported": 7}))]) == []
    session.commit()
    session.expire_all()
    assert session.get(Seat, seat.id).events_reported == 7


def test_two_updates_of_one_row_sent_together_both_take_effect(session, ana, bo):
    """PostgreSQL applies only one of two updates of a row in one statement: `together` makes
    them one (an advance's change of a seat and the seat's news cursor its turn mail moves)."""
    game = two_humans(session, ana, bo)
    seat = session.scalars(select(Seat).where(Seat.game_id == game.id, Seat.user_id == ana.id)).one()
    seat_id, error = seat.id, seat.last_error
    writes = [row_write(Seat.__table__, "seat0", seat_id, {"last_error": "refused"}),
              row_write(Seat.__table__, "cursor0", seat_id, {"events_reported": 41})]
    together(session, select(literal(1)), {}, writes)
    session.commit()
    session.expire_all()
    seat = session.get(Seat, seat_id)
    assert (seat.last_error, seat.events_reported) == ("refused", 41) and error != "refused"
