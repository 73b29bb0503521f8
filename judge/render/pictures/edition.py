"""The drawing's edition: stored pictures (the web archive's) and the kept boards (``compose.py``)
are kept under it, so a change to how a phase is drawn (layout, art, colours) must change it,
and they are drawn anew. Its own module so the package and ``png.py`` both read it without
importing each other."""

from __future__ import annotations

#: The current edition: the legend counts centres as the rules do (Hong Kong); labels never
#: under a unit.
DRAWING = "2026-12-03.3"
