"""The profile page: display name, time zone, notifications, addresses and API tokens."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, render_template, request, url_for

from pbem.extensions import db
from pbem.mail import bounces
from pbem.models import now
from pbem.services import accounts, vacations
from pbem.services.errors import Invalid
from pbem.web import back, login_required, no_referrer, signed_in

bp = Blueprint("profile", __name__, url_prefix="/profile")
# The choices for opponents' moves, as the profile form offers them.
MOVES_CHOICES = {"digest": "in one mail a day", "each": "in a mail after each of their moves",
                  "off": "never"}


def _page(status: int = 200, **extra: Any) -> Any:
    user = signed_in()
    return render_template("profile.html", user=user, tokens=accounts.api_tokens(db.session(), user),
                           opponent_moves=MOVES_CHOICES, paper_sizes=accounts.PAPER_SIZES,
                           zones=sorted(accounts.TIME_ZONES), vacations=vacations.upcoming(db.session(), user, now()),
                           vacation_caps=(vacations.MAX_LENGTH.days, vacations.YEAR_ALLOWANCE.days), **extra), status


@bp.get("")
@login_required
def show() -> Any:
    return _page()


@bp.post("")
@login_required
def update() -> Any:
    form = request.form
    try:
        accounts.update_profile(db.session(), signed_in(), display_name=form.get("display_name", ""),
                                time_zone=form.get("time_zone", ""),
                                notify_turn="notify_turn" in form, notify_results="notify_results" in form,
                                notify_invites="notify_invites" in form, notify_press="notify_press" in form,
                                opponent_moves=form.get("opponent_moves"), digest_hour=form.get("digest_hour"),
                                paper_size=form.get("paper_size"))
    except Invalid as error:
        return _page(422, error=error.message)
    return back(url_for("profile.show"), "Profile saved.")


@bp.post("/addresses")
@login_required
def add_address() -> Any:
    try:
        accounts.add_address(db.session(), signed_in(), request.form.get("email", ""),
                             base_url=current_app.config["PBEM_BASE_URL"])
    except Invalid as error:
        return _page(422, error=error.message)
    return back(url_for("profile.show"), "We sent a confirmation link to that address. "
                                         "It is added once you open the link.")


@bp.post("/addresses/<int:address_id>/remove")
@login_required
def remove_address(address_id: int) -> Any:
    accounts.remove_address(db.session(), signed_in(), address_id)
    return back(url_for("profile.show"), "Address removed.")


@bp.post("/addresses/<int:address_id>/works")
@login_required
def mail_works(address_id: int) -> Any:
    """The owner of an address suppressed after bounces says mail to it works again."""
    address = bounces.lift(db.session(), signed_in(), address_id)
    return back(url_for("profile.show"), f"Mail goes to {address.address} again.")


@bp.post("/addresses/<int:address_id>/primary")
@login_required
def make_primary(address_id: int) -> Any:
    accounts.make_primary(db.session(), signed_in(), address_id)
    return back(url_for("profile.show"), "Primary address changed.")


@bp.route("/confirm/<token>", methods=["GET", "POST"])
@no_referrer
@login_required
def confirm(token: str) -> Any:
    if request.method == "GET":  # a button, so that link scanners do not spend the token
        return render_template("auth/confirm.html", action=url_for("profile.confirm", token=token),
                               title="Confirm address", button="Confirm this address")
    address = accounts.confirm_address(db.session(), signed_in(), token)
    return back(url_for("profile.show"), f"{address.address} is now one of your addresses.")


@bp.post("/tokens")
@login_required
def create_token() -> Any:
    token, secret = accounts.create_api_token(db.session(), signed_in(), request.form.get("name", ""))
    # Shown once, on this page only; the database keeps its hash.
    return _page(new_token=secret, new_token_name=token.name)


@bp.post("/tokens/<int:token_id>/revoke")
@login_required
def revoke_token(token_id: int) -> Any:
    accounts.revoke_api_token(db.session(), signed_in(), token_id)
    return back(url_for("profile.show"), "Token revoked.")
