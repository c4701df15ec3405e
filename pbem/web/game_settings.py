"""The game settings a new game and a new league both choose: the game's setup choices (a
board, an edition), its rule options and the deadline policy; what the form offers and what
it sends (templates/lobby/_settings.html renders them)."""
from __future__ import annotations

from typing import Any

from engine.core import Game as GameRules
from pbem.games import presentation
from pbem.services import lobby
from pbem.services.kinds import default_hours
from pbem.services.policy import DEFAULT_BOTS, POLICY_DEFAULTS, REPLACE_AFTER_RANGE, VACATION_RULES
from pbem.text import option_value
from pbem.web import form_int

CLOCK_FIELDS = (("initial", "Reserve at the start (hours)"), ("increment", "Added per decision (hours)"),
                ("maximum", "Reserve at most (hours)"), ("per_turn", "Free hours per decision (not from the reserve)"))


def settings_offered(rules: GameRules) -> dict[str, Any]:
    """What the form offers for `rules`: setup choices, rule options, kinds of decision with
    their default hours, and the deadline policy's choices and defaults."""
    return {"setup_options": presentation(rules.name).setup_options(), "options": rules.options,
            "hours": default_hours(rules.name), "on_missed": lobby.ON_MISSED,
            "default_bots": DEFAULT_BOTS, "vacation_rules": VACATION_RULES, "replace_after": REPLACE_AFTER_RANGE,
            "policy_defaults": POLICY_DEFAULTS, "clock_fields": CLOCK_FIELDS}


def settings_from_form(form: Any, rules: GameRules, option_prefix: str = "") -> tuple[
        dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The setup choices, rule options and deadlines the form sent (left out: the defaults);
    checked later by the lobby, as the API's are.  `option_prefix`: before the setup choices'
    and options' field names, where the form has fields of its own that a game's option may
    share a name with (a league's "rounds")."""
    options = {option.name: option_value(option, form[option_prefix + option.name])
               for option in rules.options if form.get(option_prefix + option.name)}
    setup = {option.name: form[option_prefix + option.name]
             for option in presentation(rules.name).setup_options() if form.get(option_prefix + option.name)}
    hours = {kind: form_int(form.get(f"hours_{kind}"), f"hours for {kind}") for kind in default_hours(rules.name)}
    return setup, options, {"hours": hours, "on_missed": form.get("on_missed", "bot"), **_policy_from_form(form)}


def _policy_from_form(form: Any) -> dict[str, Any]:
    """Missed turns, replacement, vacations and the clock (docs/deadlines.md); left out: the defaults."""
    policy: dict[str, Any] = {key: form[key] for key in ("default", "abandoned", "vacation") if form.get(key)}
    replace_after = form_int(form.get("replace_after"), "missed deadlines before replacement")
    if replace_after is not None:
        policy["replace_after"] = replace_after
    clock = {key: form_int(form.get(f"clock_{key}"), f"the clock's {key}") for key, _ in CLOCK_FIELDS}
    if any(value is not None for value in clock.values()):  # all empty: no clock
        policy["clock"] = {key: value for key, value in clock.items() if key != "per_turn" or value is not None}
    return policy
