"""The Jinja environment: templates from ``templates/``, strict about missing values.

Templates live in ``templates/<audience>/<kind>.txt.j2`` (bundled with the package, see
:mod:`judge.resources`, or in ``$JUDGE_TEMPLATES``). ``StrictUndefined`` makes a missing value an error instead of a blank;
``trim_blocks``/``lstrip_blocks`` let block tags sit on their own lines without leaving
blank lines; ``keep_trailing_newline`` keeps a template's last newline.
Each template is compiled once and kept for the life of the process (``auto_reload`` off:
no look at the file's time on every render, several of which go into every reply); a
changed template is read after a restart. A template's globals are a plain copy of the
environment's (:class:`_Environment`), which are set up once, before any template is loaded.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from jinja2.runtime import Macro

from ..resources import data_dir
from . import formats
from .catalogue import entry

#: The catalogue's template of refusals: one macro per message (:func:`refusal`).
REFUSALS = "player/refusals"


def templates_dir() -> Path:
    """``$JUDGE_TEMPLATES`` if set, else the bundled ``templates/``
    (:func:`judge.resources.data_dir`)."""
    env = os.environ.get("JUDGE_TEMPLATES")
    if env:
        return Path(env)
    return data_dir("templates")


class _Environment(Environment):
    """Jinja's environment, with each template's globals a plain dict: Jinja makes them a
    ChainMap over the environment's, which every render copies by iterating it, at three
    times the cost of rendering a short section. The environment's globals never change
    after :func:`environment` sets it up, so a copy reads the same."""

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return {**self.globals, **(d or {})}


@cache
def environment(folder: str | None = None) -> Environment:
    """The one environment for ``folder`` (default :func:`templates_dir`)."""
    env = _Environment(
        loader=FileSystemLoader(folder or str(templates_dir())),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
        auto_reload=False,
    )
    env.filters.update(
        label=formats.label,
        column=formats.column,
        plural=formats.plural,
        wrap_list=formats.wrap_list,
        wrap_entry=formats.wrap_entry,
        notes=formats.notes_suffix,
        title_game=formats.title_game,
        and_list=formats.and_list,
        quoted=formats.quoted,
    )
    return env


def render(name: str, **values: Any) -> str:
    """Render the catalogue's template ``name`` (``player/wait`` or ``player/wait.txt.j2``)
    with ``values``; a name outside the catalogue is a KeyError."""
    return environment().get_template(entry(name).template).render(**values)


def section(name: str, **values: Any) -> str:
    """A reply section: the catalogue's template ``name`` rendered, without its final newline."""
    return render(name, **values).rstrip("\n")


def refusal(name: str, **values: Any) -> str:
    """Why a command was refused: the macro ``name`` of the refusals template
    (``player/refusals``) called with ``values``, so that the messages the game layer raises
    are worded in ``templates/`` like every other text; a name that is no macro there is a
    KeyError."""
    macro = getattr(environment().get_template(entry(REFUSALS).template).module, name, None)
    if not isinstance(macro, Macro):
        raise KeyError(name)
    return str(macro(**values))
