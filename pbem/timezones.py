"""A reader's time zone from the name they chose; UTC for anything that is not one."""
from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

MAX_ZONE = 64  # IANA names are far shorter; a longer one is not worth a file lookup


def zone(name: Any) -> ZoneInfo:
    if isinstance(name, str) and 0 < len(name) <= MAX_ZONE and ".." not in name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return ZoneInfo("UTC")
