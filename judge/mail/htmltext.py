"""Turn an HTML mail body into plain text with the standard library's html.parser.

A ``<blockquote>`` (the quoted original of an HTML reply, Thunderbird's and others') is
not read: it becomes one ``>`` line, so that :mod:`.quoting` takes the attribution above it
away as it does for a plain-text reply's quoted lines."""

from __future__ import annotations

import re
from html.parser import HTMLParser

_BLOCK = {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "hr"}
_SKIP = {"script", "style", "head", "title", "blockquote"}


class _TextParser(HTMLParser):
    """Collects text, a line break per block element, nothing of scripts or styles, a ``>``
    line for a quote."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            if tag == "blockquote" and not self.skipping:
                self.parts.append("\n>\n")
            self.skipping += 1
        elif tag in _BLOCK:
            self.parts.append("\n")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self.skipping = max(0, self.skipping - 1)
        elif tag in _BLOCK:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(re.sub(r"[ \t\r\n]+", " ", data))


def html_to_text(html: str) -> str:
    """The visible text of ``html``, one line per block, blank runs collapsed."""
    parser = _TextParser()
    parser.feed(html)
    parser.close()
    lines = [line.strip().replace("\xa0", " ") for line in "".join(parser.parts).split("\n")]
    text = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip()

