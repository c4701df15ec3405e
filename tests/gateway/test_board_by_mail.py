"""BOARD by mail answers with the board's picture too: an inline PNG of pbem.drawing's board
from the asking seat's view, shown by the reply's HTML under the text answer (over real SMTP)."""
from __future__ import annotations

from io import BytesIO
from typing import Any

import pytest
from PIL import Image
from sqlalchemy.orm import Session

from gateway_helpers import body, mail_and_wait
from pbem.mail.picture import board_picture
from pbem.models import Game
from pbem.reports.render import MAIL_BOARD_WIDTH
from pbem.services.state import game_state
from seat_game import ANA, ana_game

@pytest.fixture
def table(app: Any, session: Session) -> dict[str, Any]:
    return ana_game(session, app.config)


def _reply(gateway: Any, sink: Any, to: str, text: str) -> Any:
    replies = sink.replies_to(mail_and_wait(gateway, ANA, to, text))
    assert len(replies) == 1
    return replies[0]


def test_the_board_reply_carries_the_seats_board_picture(table: dict[str, Any], session: Session,
                                                         gateway: Any, sink: Any) -> None:
    """pyvips draws it, as it draws the report mails' board (a wheel from the lock file)."""
    reply = _reply(gateway, sink, table["address"], "BOARD")
    assert "Score track:" in body(reply)
    html = reply.get_body(("html",)).get_content()
    assert 'src="cid:board"' in html and "Score track:" in html
    pictures = [part for part in reply.walk() if part.get_content_type() == "image/png"]
    assert len(pictures) == 1
    picture = pictures[0]
    assert picture["Content-ID"] == "<board>" and picture.get_content_disposition() == "inline"
    png = picture.get_content()
    assert Image.open(BytesIO(png)).size[0] == MAIL_BOARD_WIDTH * 2
    # Drawn from Ana's seat's view, nothing else.
    state = game_state(session, session.get(Game, table["game_id"]))
    expected = board_picture(state, state.view(table["seat"]))
    assert expected is not None and png == expected.data


def test_other_answers_stay_plain_text(table: dict[str, Any], gateway: Any, sink: Any) -> None:
    reply = _reply(gateway, sink, table["address"], "STATUS\nHAND")
    assert not reply.is_multipart() and "Waiting for:" in body(reply)
