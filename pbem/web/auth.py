"""Sign-in by emailed one-time link, and sign-out."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, redirect, render_template, request, session, url_for
from flask_limiter.util import get_remote_address

from pbem.extensions import db, limiter
from pbem.services import accounts
from pbem.services.errors import Invalid
from pbem.web import current_user, no_referrer, safe_next

bp = Blueprint("auth", __name__)


def _address_key() -> str:
    return "signin-address:" + (request.form.get("email") or "").strip().lower()[:254]


@bp.route("/signin", methods=["GET", "POST"])
@limiter.limit(lambda: current_app.config["PBEM_SIGNIN_IP_LIMIT"], methods=["POST"],
               key_func=get_remote_address, scope="signin-ip")
@limiter.limit(lambda: current_app.config["PBEM_SIGNIN_LIMIT"], methods=["POST"],
               key_func=_address_key, scope="signin-address")
def signin() -> Any:
    next_url = safe_next(request.values.get("next"))
    if request.method == "GET":
        return render_template("auth/signin.html", next=next_url, email="")
    email = request.form.get("email", "")
    try:
        accounts.request_sign_in(db.session(), email, base_url=current_app.config["PBEM_BASE_URL"])
    except Invalid as error:
        return render_template("auth/signin.html", next=next_url, email=email, error=error.message), 422
    session["next"] = next_url  # where the link brings this browser back to
    return render_template("auth/sent.html", email=email.strip().lower())


@bp.route("/signin/<token>", methods=["GET", "POST"])
@limiter.limit(lambda: current_app.config["PBEM_SIGNIN_IP_LIMIT"], methods=["POST"],
               key_func=get_remote_address, scope="signin-link")
@no_referrer
def signin_link(token: str) -> Any:
    # GET only shows a button: mail scanners that fetch links must not spend the token.
    if request.method == "GET":
        return render_template("auth/confirm.html", action=url_for("auth.signin_link", token=token),
                               title="Sign in", button="Sign in")
    try:
        user = accounts.complete_sign_in(db.session(), token)
    except Invalid as error:
        return render_template("error.html", title="Link not valid", message=error.message), 400
    next_url = safe_next(session.get("next"))
    session.clear()  # a fresh session: nothing chosen before signing in carries over
    session["uid"], session["gen"] = user.id, user.session_generation
    session.permanent = True
    return redirect(next_url)


@bp.post("/signout")
def signout() -> Any:
    """Signing out ends the session on the server too: the person's session generation
    moves on, so this cookie (or a copy of it) signs nobody in any more.  Cookies cannot
    be told apart, so every browser signed in as the person is signed out with it."""
    user = current_user()
    if user is not None:
        accounts.sign_out_everywhere(db.session(), user)
    session.clear()
    return redirect(url_for("lobby.home"))


@bp.app_context_processor
def _who() -> dict[str, Any]:
    return {"me": current_user()}
