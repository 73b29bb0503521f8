"""Every text a person reads: result mails, replies, notices, press, lists and help.

The wording lives in Jinja2 templates under ``templates/<audience>/<kind>.txt.j2``; this
package prepares the values and keeps the classic njudge layout that mapping tools read
(``../shared/reference/mapper-compat.md``). See ``README.md`` here for the table of
functions. Every ``*_mail`` returns a :class:`Rendered` (subject, body); every ``*_text``
returns one section of a reply, for :func:`reply_mail`.
"""

from .context import Context, GameContext, JudgeContext, Rendered
from .formats import ALLOWED_NOTES, format_deadline, time_left
from .listing import (
    GameLine,
    HelpTopicError,
    Listing,
    game_list_mail,
    game_list_text,
    help_mail,
    help_text,
    help_topics,
    history_mail,
    history_text,
    list_mail,
    list_text,
    summary_mail,
    summary_text,
)
from .notices import (
    deadline_changed_mail,
    eject_mail,
    game_created_mail,
    game_start_mail,
    game_state_mail,
    press_mail,
    press_sent_text,
    resign_mail,
    selected_mail,
)
from .replies import (
    error_text,
    joined_text,
    observe_text,
    order_reply,
    orders_text,
    preference_text,
    reply_mail,
    signon_text,
    wait_text,
    wrong_password_text,
)
from .results import game_over_text, results_mail

__all__ = [
    "ALLOWED_NOTES", "Context", "GameContext", "GameLine", "HelpTopicError", "JudgeContext", "Listing",
    "Rendered", "deadline_changed_mail", "eject_mail", "error_text", "format_deadline",
    "game_created_mail", "game_list_mail", "game_list_text", "game_over_text", "game_start_mail",
    "game_state_mail", "help_mail", "help_text", "help_topics", "history_mail", "history_text",
    "joined_text", "list_mail", "list_text", "observe_text", "order_reply", "orders_text",
    "preference_text", "press_mail", "press_sent_text", "reply_mail", "resign_mail", "results_mail",
    "selected_mail", "signon_text", "summary_mail", "summary_text", "time_left", "wait_text",
    "wrong_password_text",
]
