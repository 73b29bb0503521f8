"""What the sender wrote in a reply: the quoted original, its attribution and the
signature taken away, as the common mail clients lay them out.

A player answers a judge's mail with their mail program's Reply, so the commands come
with the judge's own mail quoted under them, a line that says who wrote it, and often a
signature. What each client does (and what is dropped here):

- quoted lines (``>``): dropped, and the judge reads on after them (an answer written
  between quoted lines is kept);
- the attribution before them, ``On <date>, <name> wrote:``, also when the client wraps
  it on two or three lines (Gmail) or in another language (``Am ... schrieb ...:``);
- an HTML-only reply (Thunderbird) quotes in a ``<blockquote>``: :mod:`.htmltext` turns
  it into one ``>`` line, so its attribution goes the same way;
- Outlook pastes the original below the reply without ``>``: from an ``-----Original
  Message-----`` line, or a ``From:`` line with ``Sent:``/``Date:`` and ``To:``/``Subject:``
  lines under it (after a line of underscores or not), nothing more is the sender's;
- a signature: from a ``-- `` line, or a phone's ``Sent from my iPhone`` /
  ``Get Outlook for iOS`` line, nothing more is the sender's.

``mail-parser-reply`` was considered and not taken: it ends a reply at any line starting
``Thanks,``, ``Best,`` or ``- word`` (a press message's words, and every command after
them, would be lost) and strips the indentation of every line (press as typed).
"""

from __future__ import annotations

import re

#: The words before the colon of an attribution, in the languages players write.
_WROTE = re.compile(r"\b(wrote|schrieb|a écrit|escribió|ha scritto|schreef|skrev|napisał)\b[^:]*:\s*$",
                    re.IGNORECASE)
#: How an attribution starts, when a client wraps it over lines.
_OPENER = re.compile(r"^(on|am|le|el|il|op|den|dnia|w dniu)\s", re.IGNORECASE)
_ATTRIBUTION_LINES = 3
_SENT_FROM = re.compile(r"^(sent from my|sent from (outlook|mail|yahoo mail)|get outlook for)\b", re.IGNORECASE)
_SHORT = 8  # words: a phone's signature line is short; a press sentence may begin the same way
_ORIGINAL = re.compile(r"^-{3,}\s*(original message|ursprüngliche nachricht|message d'origine)\s*-{3,}$",
                       re.IGNORECASE)
_HEADER = re.compile(r"^\*?(from|sent|date|to|cc|subject|von|gesendet|an|betreff|de|envoyé|à|objet)\s*:\*?\s*\S",
                     re.IGNORECASE)
_FROM = re.compile(r"^\*?(from|von|de)\s*:", re.IGNORECASE)
_RULE = re.compile(r"^_{10,}$")
_HEADER_LINES = 6


def own_text(text: str) -> str:
    """The part of a mail's text the sender wrote (see the module docstring), trailing
    spaces and blank lines at both ends removed."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    for i, raw in enumerate(lines):
        line = raw.strip()
        if line == "--" or _signature(line) or _ORIGINAL.match(line) or _outlook_header(lines, i):
            break
        if line.startswith(">"):
            _drop_attribution(kept)
            continue
        kept.append(raw.rstrip())
    _drop_attribution(kept)
    while kept and not kept[0].strip():
        kept.pop(0)
    return "\n".join(kept)


def _signature(line: str) -> bool:
    return bool(_SENT_FROM.match(line)) and len(line.split()) <= _SHORT


def _outlook_header(lines: list[str], i: int) -> bool:
    """Whether line ``i`` opens the header block Outlook puts above a pasted original:
    ``From:`` and, in the lines under it, a ``Sent:``/``Date:`` and a ``To:``/``Subject:``."""
    if not _FROM.match(lines[i].strip()):
        return False
    names = set()
    for line in lines[i + 1:i + 1 + _HEADER_LINES]:
        found = _HEADER.match(line.strip())
        if found:
            names.add(found.group(1).lower())
    return bool(names & {"sent", "date", "gesendet", "envoyé"}) and bool(names & {"to", "subject", "an", "betreff",
                                                                                 "à", "objet"})


def _drop_attribution(kept: list[str]) -> None:
    """Take the blank lines, a line of underscores and an attribution off the end of
    ``kept`` (what came before quoted lines, or before the end)."""
    while kept and (not kept[-1].strip() or _RULE.match(kept[-1].strip())):
        kept.pop()
    if not kept or not _WROTE.search(kept[-1]):
        return
    for back in range(1, _ATTRIBUTION_LINES + 1):
        if back > len(kept):
            break
        if _OPENER.match(kept[-back].strip()):
            del kept[-back:]
            return
    kept.pop()
    while kept and not kept[-1].strip():
        kept.pop()
