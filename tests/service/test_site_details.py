"""Details a player or developer notices: the outbox shows every header, the site has an icon."""
from __future__ import annotations

from pbem.extensions import db
from pbem.outbox.messages import send_mail


def test_the_outbox_shows_reply_to_and_every_header(app, client):
    """A turn mail's Reply-To is the seat's address: a developer must see it to reply by hand."""
    with app.app_context():
        send_mail(db.session(), "ana@example.com", "Your turn", "Play.", topic="turn",
                  reply_to="play+seat-token@example.org", headers={"In-Reply-To": "<earlier@example.org>"})
        db.session.commit()
    page = client.get("/dev/outbox").get_data(as_text=True)
    assert "<dt>Reply-To</dt><dd><code>play+seat-token@example.org</code></dd>" in page
    assert "<dt>In-Reply-To</dt><dd><code>&lt;earlier@example.org&gt;</code></dd>" in page
    assert "<dt>Message-ID</dt>" in page and "<dt>Auto-Submitted</dt>" in page


def test_a_hostile_header_value_is_shown_escaped(app, client):
    with app.app_context():
        send_mail(db.session(), "ana@example.com", "<script>alert(1)</script>", "x", topic="turn",
                  headers={"X-Note": "<img src=x onerror=alert(1)>"})
        db.session.commit()
    page = client.get("/dev/outbox").get_data(as_text=True)
    assert "<img src=x" not in page and "<script>alert" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page


def test_the_site_has_an_icon(client):
    """Browsers ask /favicon.ico of every site: the answer is the emblem, not a 404."""
    answer = client.get("/favicon.ico")
    assert answer.status_code == 200 and answer.mimetype == "image/svg+xml"
    assert answer.data.lstrip().startswith(b"<svg") and b"<script" not in answer.data
    assert 'rel="icon" href="/favicon.ico"' in client.get("/").get_data(as_text=True)
