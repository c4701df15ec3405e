"""A reader's time zone from the name they chose (UTC for anything that is not one), and a
moment as that reader reads it."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

if TYPE_CHECKING:
    from pbem.models import User

MAX_ZONE = 64  # IANA names are far shorter; a longer one is not worth a file lookup


def zone(name: Any) -> ZoneInfo:
    if isinstance(name, str) and 0 < len(name) <= MAX_ZONE and ".." not in name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return ZoneInfo("UTC")


def zone_of(user: User | None) -> ZoneInfo:
    return zone(user.time_zone if user is not None else None)


def when(moment: datetime | None, user: User | None) -> str:
    """A time for a reader: in their time zone, with the zone named ("Tue 3 Dec 2026 18:00 CET")."""
    if moment is None:
        return "no deadline"
    local = moment.astimezone(zone_of(user))
    return f"{local:%a} {local.day} {local:%b %Y %H:%M} {local.tzname() or ''}".rstrip()


def iso_utc(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(timezone.utc).isoformat(timespec="seconds")
