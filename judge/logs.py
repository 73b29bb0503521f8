"""How the judge's processes log: one line format, the chatty libraries held to warnings.

``setup_logging(level)`` is called by the command line before ``judge serve`` and the other
server commands, and by the game process (:mod:`judge.game_process`) when it starts, so
both processes of one judge write the same lines to the same stream.
"""

from __future__ import annotations

import logging

FORMAT = "%(asctime)s %(levelname)s %(name)s[%(process)d]: %(message)s"  # the pid tells the two processes apart
QUIET = ("mail.log", "apscheduler")  # aiosmtpd's per-session lines, APScheduler's per-run lines


def setup_logging(level: int = logging.INFO) -> None:
    """Log at ``level`` and above to standard error in :data:`FORMAT`."""
    logging.basicConfig(level=level, format=FORMAT)
    for noisy in QUIET:
        logging.getLogger(noisy).setLevel(logging.WARNING)
