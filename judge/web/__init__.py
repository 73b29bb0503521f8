"""The read-only web archive of the judge's games (``judge web``; off without ``[web]``).

``create_app(config)`` is the ASGI app (Starlette), ``serve(config)`` runs it with uvicorn,
``phase_url(base_url, game, phase)`` is a phase page's address for result mails. What a page
may show is decided in ``archive.py``: only what the players have already been mailed.
"""

from ..render.links import game_path, phase_path, phase_url

__all__ = ["create_app", "game_path", "phase_path", "phase_url", "serve"]


def __getattr__(name: str) -> object:
    # The app pulls in Starlette and the database; a result mail needs only phase_url.
    if name in ("create_app", "serve"):
        from . import app

        return getattr(app, name)
    raise AttributeError(name)
