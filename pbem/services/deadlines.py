"""Deadlines as the channels call them (docs/deadlines.md), one import for the web, the API
and the worker; each job lives in its own module:

- pbem/services/tick.py: what happens by the clock (the beat task's `tick`);
- pbem/services/host.py: the host's controls (extend, pause, resume);
- pbem/services/takeover.py: seats offered for takeover, taken over or handed to a bot;
- pbem/services/deadline_info.py: what a page or API answer shows;
- pbem/services/schedule.py and pbem/services/policy.py: when a decision is due, and the rules.
"""
from __future__ import annotations

from pbem.services.deadline_info import DeadlineInfo, deadline_info, deadline_json
from pbem.services.host import (EXTENSION_HOURS_PER_DECISION, EXTENSION_HOURS_PER_GAME, EXTENSIONS_PER_DECISION,
                                PAUSE_LIMIT, extend_deadline, pause_game, resume_game)
from pbem.services.policy import policy_of
from pbem.services.takeover import hand_to_bot, take_over, takeover_games
from pbem.services.tick import OUTAGE_GAP, OUTAGE_GRACE, TICK_BUDGET, TickReport, tick

__all__ = ["DeadlineInfo", "deadline_info", "deadline_json", "EXTENSION_HOURS_PER_DECISION", "EXTENSION_HOURS_PER_GAME",
           "EXTENSIONS_PER_DECISION", "PAUSE_LIMIT", "extend_deadline", "pause_game", "resume_game", "policy_of",
           "hand_to_bot", "take_over", "takeover_games", "OUTAGE_GAP", "OUTAGE_GRACE", "TICK_BUDGET", "TickReport",
           "tick"]
