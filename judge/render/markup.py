"""Markup (SVG and HTML) from templates, escaped: the pictures and the web archive's pages.

The same ``templates/`` folder and the same strictness as the mail texts
(:mod:`judge.render.environment`), but every value is escaped for XML/HTML, since a game
name or a press text goes into an element or an attribute. Templates are compiled once, as
there.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from .catalogue import entry
from .environment import templates_dir


@cache
def markup_environment(folder: str | None = None) -> Environment:
    """The escaping environment for ``folder`` (default: the templates folder)."""
    return Environment(
        loader=FileSystemLoader(folder or str(templates_dir())),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=True,
        auto_reload=False,
    )


def render_markup(name: str, **values: Any) -> str:
    """Render the catalogue's template ``name`` (``pictures/board.svg.j2``, ``web/game.html.j2``...)."""
    return markup_environment().get_template(entry(name).template).render(**values)
