"""The command language: one table of every command (:mod:`.table`), the reader that splits
a mail into commands (:mod:`.reading`), the handlers, and :func:`handle_mail`, the mail
handler the server gives the inbox. ``README.md`` here describes the design."""

from .mail import answer_failure, handle_mail
from .table import ROWS, TABLE, Row

__all__ = ["ROWS", "TABLE", "Row", "answer_failure", "handle_mail"]
