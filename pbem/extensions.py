"""Flask extensions, created unbound here and bound to an app in `create_app`."""
from __future__ import annotations

from flask import g, request
from flask_limiter import Limiter
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

# Stable constraint names, so Alembic migrations can name what they alter or drop.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


def client_key() -> str:
    """Who a rate limit counts: the signed-in person if any, else the address asking."""
    user = getattr(g, "user", None)
    if user is not None:
        return f"user:{user.id}"
    return f"ip:{request.remote_addr or 'unknown'}"


db = SQLAlchemy(model_class=Base)
csrf = CSRFProtect()
limiter = Limiter(key_func=client_key)
