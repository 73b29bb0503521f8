"""Every text a person reads: result mails, replies, notices, press, lists and help.

The wording lives in Jinja2 templates under ``templates/<audience>/<kind>.txt.j2``, each
registered in :mod:`.catalogue`; this package prepares the values and keeps the classic
njudge layout that mapping tools read (``../shared/reference/mapper-compat.md``). See
``README.md`` here for the table of functions. Every ``*_mail`` returns a :class:`Rendered`
(subject, body); every ``*_text`` (and :func:`section`) returns one section of a reply, for
:func:`reply_mail`. Nothing outside this package calls Jinja.
"""

from .catalogue import CATALOGUE, Entry
from .context import Context, GameContext, JudgeContext, Rendered
from .environment import refusal, section
from .formats import ALLOWED_NOTES, format_deadline, time_left
from .late_notices import late_mail, reminder_mail, waiting_mail
from .listing import (
    GameLine,
    HelpTopicError,
    Listing,
    Member,
    PowerOrders,
    game_list_text,
    help_mail,
    help_text,
    help_topics,
    history_text,
    list_text,
    power_orders_text,
    who_game_text,
)
from .notices import (
    PressHeader,
    absence_mail,
    diaries_mail,
    eject_mail,
    future_orders_mail,
    game_end_mail,
    game_start_mail,
    game_state_mail,
    member_changed_mail,
    notices_mail,
    postal_press_mail,
    press_mail,
    press_sent_text,
    promoted_mail,
    resign_mail,
    role_letter,
    rolled_back_mail,
    selected_mail,
    settings_mail,
    takeover_mail,
    unstarted_mail,
)
from .replies import (
    adjustments_text,
    error_text,
    joined_text,
    observe_text,
    order_lines_text,
    orders_text,
    preference_text,
    refusal_text,
    reply_mail,
    signon_text,
    wait_text,
    wrong_password_text,
)
from .results import game_over_text, results_mail
from .summary import Summary, Tenure, summary_text

__all__ = [
    "absence_mail", "adjustments_text", "ALLOWED_NOTES", "CATALOGUE", "Context", "eject_mail", "Entry",
    "error_text", "format_deadline", "future_orders_mail", "diaries_mail", "game_end_mail", "game_list_text", "game_over_text",
    "game_start_mail", "game_state_mail", "GameContext", "GameLine", "help_mail", "help_text", "help_topics",
    "HelpTopicError", "history_text", "joined_text", "JudgeContext", "late_mail", "list_text", "Listing", "Member",
    "member_changed_mail", "observe_text", "order_lines_text", "orders_text", "postal_press_mail",
    "power_orders_text", "PowerOrders", "preference_text", "press_mail", "press_sent_text", "PressHeader",
    "promoted_mail", "refusal", "refusal_text", "reminder_mail", "Rendered", "reply_mail", "resign_mail", "results_mail",
    "role_letter", "rolled_back_mail", "section", "selected_mail", "notices_mail", "settings_mail", "signon_text", "Summary",
    "summary_text", "takeover_mail", "Tenure", "time_left", "unstarted_mail", "wait_text", "waiting_mail",
    "who_game_text", "wrong_password_text",
]
