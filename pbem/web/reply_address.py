"""Replacing one's own reply address from the game page (pbem/mail/seat_address.py)."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, url_for

from pbem.extensions import db
from pbem.services import seat_address
from pbem.web import back, login_required, signed_in

bp = Blueprint("reply_address", __name__, url_prefix="/games")


@bp.post("/<int:game_id>/reply-address")
@login_required
def replace(game_id: int) -> Any:
    address = seat_address.replace_address(db.session(), game_id, signed_in())
    return back(url_for("game.page", game_id=game_id) + "#reply-address",
                f"Your new reply address is {address}; we mailed it to you. The old one no longer works.",
                "success")
