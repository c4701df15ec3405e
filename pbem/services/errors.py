"""Errors the application layer raises; each channel turns them into its own answer."""
from __future__ import annotations


class ServiceError(Exception):
    """Something the caller asked that cannot be done; the message is meant for the person."""

    status = 400
    code = "bad-request"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Invalid(ServiceError):
    status, code = 422, "invalid"


class OrderRejected(Invalid):
    """An order that does not parse or that the rules refuse now; nothing was stored."""

    code = "order-rejected"

    def __init__(self, message: str, *, expected: str = "", line: str = ""):
        super().__init__(message)
        self.expected, self.line = expected, line


class NotFound(ServiceError):
    status, code = 404, "not-found"


class Forbidden(ServiceError):
    status, code = 403, "forbidden"


class Conflict(ServiceError):
    status, code = 409, "conflict"


class StaleGame(Conflict):
    """The game changed under us (compare-and-set on `version` failed); try again."""

    code = "stale"


class Unauthorized(ServiceError):
    status, code = 401, "unauthorized"
