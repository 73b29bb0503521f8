"""The read-only web archive: a small Starlette app, served by uvicorn (``judge web``).

Routes (``links.py`` builds them): ``/`` the games; ``/ratings`` and ``/ratings/<map>`` the
skill ratings (:mod:`.ratings`, no addresses); ``/games/<game>`` a game's phases and
its centres by year; ``/games/<game>/<phase>`` a phase's picture, results text and public
press; ``/games/<game>/<phase>.png`` and ``.svg`` the picture itself; ``/metrics`` the
judge's state for Prometheus (``metrics.py``). Pages are plain HTML
(no JavaScript) from ``templates/web/``. Only what players have been mailed is shown
(``archive.py``). Every request opens its own session; pages only read.

A phase's picture is drawn once: the first request for it draws it (in a worker thread, so
the other requests go on) and stores it (``judge.store.pictures``); every later request, of
this process or another, serves the stored bytes. A processed phase's PNG is the one its
result mail carried, when the picture stage has made it. :class:`Pictures` counts what it
drew.
"""

from __future__ import annotations

from collections import defaultdict
from threading import Lock

from prometheus_client import CONTENT_TYPE_LATEST
from sqlalchemy.orm import Session, sessionmaker
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from ..config import Config
from ..maps import load_map
from ..render import section as render_section
from ..render.links import game_path, phase_path, ratings_path
from ..render.markup import render_markup
from ..render.pictures import phase_picture, svg_to_png
from ..store.base import make_engine, make_sessionmaker
from ..store.games import FINISHED, TERMINATED, Game, Role
from ..store.pictures import mailed_png, store_picture, stored_picture
from ..store.ratings import OVERALL
from . import archive, metrics
from . import ratings as rating_pages


class Pictures:
    """Phase pictures, drawn once and kept in the database (making a PNG takes a good part
    of a second). ``drawn`` counts the pictures this process drew, ``mailed`` those whose
    PNG it took from a result mail's attachment instead of making it; one lock per picture
    keeps two requests of the process from drawing the same one."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions
        self.drawn = 0
        self.mailed = 0
        self._locks: defaultdict[str, Lock] = defaultdict(Lock)
        self._guard = Lock()

    def get(self, detail: archive.PhaseDetail) -> tuple[str, bytes]:
        """``(svg, png)`` of the phase: stored, else drawn now and stored."""
        key = detail.picture_key
        with self._guard:
            lock = self._locks[key]
        with lock:
            with self.sessions() as session:
                found = stored_picture(session, key)
            if found is not None:
                return found
            svg = phase_picture(detail.board, detail.position, detail.adjudication, game=detail.game.name).svg
            processed = detail.adjudication is not None
            with self.sessions() as session:
                mailed = mailed_png(session, svg) if processed else None
            png = mailed or svg_to_png(svg)
            with self.sessions() as session:
                store_picture(session, key, detail.game.id, detail.entry.code, svg, png, processed=processed)
            with self._guard:
                self.drawn += 1
                self.mailed += mailed is not None
                self._locks.pop(key, None)
        return svg, png


def create_app(config: Config, *, sessions: sessionmaker[Session] | None = None) -> Starlette:
    """The archive app over the database of ``config``."""
    maker = sessions or make_sessionmaker(make_engine(config.database_url), mail_domain=config.domain)
    pictures = Pictures(maker)

    def _page(name: str, status: int = 200, **values: object) -> HTMLResponse:
        return HTMLResponse(render_markup(f"web/{name}.html.j2", game_path=game_path, phase_path=phase_path,
                                          ratings_path=ratings_path, judge_code=config.code, **values), status_code=status)

    def _not_found(what: str) -> HTMLResponse:
        return _page("not_found", 404, what=what)

    async def index(request: Request) -> Response:
        with maker() as session:
            games = [_game_line(session, g) for g in archive.public_games(session)]
        return _page("index", games=games)

    async def ratings_page(request: Request) -> Response:
        name = request.path_params.get("map")
        ladder, title = OVERALL, "overall"
        if name is not None:
            try:
                found = load_map(name)
            except KeyError:
                return _not_found(f"map {name}")
            ladder, title = found.name, found.title
        with maker() as session:
            ladders = [(m, load_map(m).title) for m in rating_pages.ladders(session)]
            rows = rating_pages.table(session, ladder)
        return _page("ratings", title=title, ladders=ladders, rows=rows)

    async def game_page(request: Request) -> Response:
        name = request.path_params["game"]
        with maker() as session:
            game = archive.find_public_game(session, name)
            if game is None:
                return _not_found(f"game {name}")
            powers, summary = archive.centre_summary(session, game)
            return _page("game", game=_game_line(session, game), phases=archive.phases(session, game),
                         powers=powers, summary=summary, withdrawn=archive.withdrawn_results(session, game))

    async def phase_page(request: Request) -> Response:
        name, code = request.path_params["game"], request.path_params["phase"].upper()
        with maker() as session:
            game = archive.find_public_game(session, name)
            detail = archive.phase_detail(session, game, code) if game is not None else None
            if game is None or detail is None:
                return _not_found(f"phase {code} of game {name}")
            entries = archive.phases(session, game)
            powers, summary = archive.centre_summary(session, game)
            codes = [e.code for e in entries]
            at = codes.index(code) if code in codes else -1
            return _page("phase", game=_game_line(session, game), detail=detail, entry=detail.entry,
                         powers=powers, summary=summary,
                         previous=entries[at - 1] if at > 0 else None,
                         following=entries[at + 1] if 0 <= at < len(entries) - 1 else None,
                         )

    def picture(request: Request) -> Response:
        """A phase's picture (a plain function: Starlette runs it in a worker thread)."""
        name, code, ext = request.path_params["game"], request.path_params["phase"].upper(), request.path_params["ext"]
        if ext not in ("png", "svg"):
            return _not_found(f"picture {code}.{ext}")
        with maker() as session:
            game = archive.find_public_game(session, name)
            detail = archive.phase_detail(session, game, code) if game is not None else None
            if game is None or detail is None:
                return _not_found(f"picture of phase {code} of game {name}")
        svg, png = pictures.get(detail)
        media = "image/png" if ext == "png" else "image/svg+xml"
        return Response(png if ext == "png" else svg.encode("utf-8"), media_type=media,
                        headers={"Cache-Control": "public, max-age=300"})

    scraped = metrics.registry(maker, config)

    def metrics_page(request: Request) -> Response:
        """The Prometheus text (a plain function: its queries run in a worker thread)."""
        return Response(metrics.exposition(scraped), media_type=CONTENT_TYPE_LATEST)

    routes = [
        Route("/", index),
        Route("/metrics", metrics_page),
        Route("/ratings", ratings_page),
        Route("/ratings/{map}", ratings_page),
        Route("/games/{game}", game_page),
        Route("/games/{game}/{phase}.{ext:str}", picture),
        Route("/games/{game}/{phase}", phase_page),
    ]
    app = Starlette(routes=routes)
    app.state.sessions = maker
    app.state.pictures = pictures
    return app


def _game_line(session: Session, game: Game) -> dict[str, object]:
    board = archive.game_board(game).map
    over = game.status in (FINISHED, TERMINATED)
    return {"name": game.name, "map": board.title, "status": game.status, "phase": "" if over else game.phase or "",
            "players": sum(1 for p in game.players if p.role == Role.PLAYER and p.active),
            "ended": _ending(game)}


def _ending(game: Game) -> str | None:
    """How a finished or terminated game ended (solo, draw, concession, terminated), in the
    sentence its final mail said it; None while it goes on."""
    if game.status == TERMINATED:
        how, powers = "terminated", []
    elif game.status == FINISHED:
        how = game.ending or ("victory" if len(game.winners) == 1 else "draw")
        powers = list(game.winners)
    else:
        return None
    return render_section("all/ending", how=how, game=game.name, powers=powers).strip()


def serve(config: Config) -> None:
    """Run the archive on ``[web] host``/``port`` until interrupted."""
    import uvicorn

    uvicorn.run(create_app(config), host=config.web_host, port=config.web_port, log_level="info",
                access_log=False)
