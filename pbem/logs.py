"""Secret links never reach a log.

A sign-in link (/signin/<token>), an address confirmation (/profile/confirm/<token>) and a
mail's unsubscribe link (/mail/unsubscribe/<token>) carry their credential in the path,
which access logs print (the request line, and the Referer a page's own requests send).
A filter on the loggers of the servers we run under (the development server's `werkzeug`,
gunicorn's `gunicorn.access` and `gunicorn.error`) and on the app's own logger replaces the
token with "[redacted]" in every line, whatever command line started the server.  The pages
behind those links also send no Referer at all (pbem/web/__init__.py, `no_referrer`).
"""
from __future__ import annotations

import logging
import re
from urllib.parse import unquote

from flask import Flask

SECRET_PATH = re.compile(r"(/signin/|/profile/confirm/|/mail/unsubscribe/)[^\s/?#\"']+")
REDACTED = "[redacted]"
SERVER_LOGGERS = ("werkzeug", "gunicorn.access", "gunicorn.error")


def redact(text: str) -> str:
    return SECRET_PATH.sub(r"\g<1>" + REDACTED, text)


class RedactSecretLinks(logging.Filter):
    """Rewrites a record whose message holds a secret link (its arguments are merged in)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = redact(message)
        if redacted == message:
            # The server routes a percent-encoded path (/%73ignin/...) as the plain one, and
            # logs the request line as sent: look at it decoded too.
            decoded = unquote(message)
            redacted = message if redact(decoded) == decoded else redact(decoded)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


def redact_secret_links(app: Flask) -> None:
    for name in (*SERVER_LOGGERS, app.logger.name):
        logger = logging.getLogger(name)
        if not any(isinstance(existing, RedactSecretLinks) for existing in logger.filters):
            logger.addFilter(RedactSecretLinks())
