"""The read-only web archive: a small Starlette app, served by uvicorn (``judge web``).

Routes (``links.py`` builds them): ``/`` the games; ``/games/<game>`` a game's phases and
its centres by year; ``/games/<game>/<phase>`` a phase's picture, results text and public
press; ``/games/<game>/<phase>.png`` and ``.svg`` the picture itself. Pages are plain HTML
(no JavaScript) from ``templates/web/``. Only what players have been mailed is shown
(``archive.py``). Every request opens its own read-only session.
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock

from sqlalchemy.orm import Session, sessionmaker
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from ..config import Config
from ..render.links import game_path, phase_path
from ..render.markup import render_markup
from ..render.pictures import phase_picture
from ..store.base import make_engine, make_sessionmaker
from ..store.games import Game, Role
from . import archive

PNG_CACHE_SIZE = 64


class PictureCache:
    """The last pictures drawn, by (game, phase, processed, rollbacks): a phase's picture
    never changes once processed (unless a rollback has it played again), and drawing a PNG
    takes a good part of a second."""

    def __init__(self, size: int = PNG_CACHE_SIZE) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, str, str, bool, int], bytes] = OrderedDict()
        self._lock = Lock()

    def get(self, key: tuple[str, str, str, bool, int]) -> bytes | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: tuple[str, str, str, bool, int], value: bytes) -> None:
        with self._lock:
            self._items[key] = value
            while len(self._items) > self.size:
                self._items.popitem(last=False)


def create_app(config: Config, *, sessions: sessionmaker[Session] | None = None) -> Starlette:
    """The archive app over the database of ``config``."""
    maker = sessions or make_sessionmaker(make_engine(config.database_url), mail_domain=config.domain)
    pictures = PictureCache()

    def _page(name: str, status: int = 200, **values: object) -> HTMLResponse:
        return HTMLResponse(render_markup(f"web/{name}.html.j2", game_path=game_path, phase_path=phase_path,
                                          judge_code=config.code, **values), status_code=status)

    def _not_found(what: str) -> HTMLResponse:
        return _page("not_found", 404, what=what)

    async def index(request: Request) -> Response:
        with maker() as session:
            games = [_game_line(session, g) for g in archive.public_games(session)]
        return _page("index", games=games)

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

    async def picture(request: Request) -> Response:
        name, code, ext = request.path_params["game"], request.path_params["phase"].upper(), request.path_params["ext"]
        if ext not in ("png", "svg"):
            return _not_found(f"picture {code}.{ext}")
        with maker() as session:
            game = archive.find_public_game(session, name)
            detail = archive.phase_detail(session, game, code) if game is not None else None
            if game is None or detail is None:
                return _not_found(f"picture of phase {code} of game {name}")
            key = (game.name, code, ext, detail.adjudication is not None, game.rollbacks)
            cached = pictures.get(key) if detail.adjudication is not None else None
            if cached is None:
                drawn = phase_picture(detail.board.map, detail.position, detail.adjudication, game=game.name,
                                      calendar=archive.calendar_of(detail.board))
                cached = drawn.png if ext == "png" else drawn.svg.encode("utf-8")
                if detail.adjudication is not None:
                    pictures.put(key, cached)
        media = "image/png" if ext == "png" else "image/svg+xml"
        return Response(cached, media_type=media, headers={"Cache-Control": "public, max-age=300"})

    routes = [
        Route("/", index),
        Route("/games/{game}", game_page),
        Route("/games/{game}/{phase}.{ext:str}", picture),
        Route("/games/{game}/{phase}", phase_page),
    ]
    app = Starlette(routes=routes)
    app.state.sessions = maker
    return app


def _game_line(session: Session, game: Game) -> dict[str, object]:
    board = archive.game_board(game).map
    return {"name": game.name, "map": board.title, "status": game.status, "phase": game.phase or "",
            "players": sum(1 for p in game.players if p.role == Role.PLAYER and p.active)}


def serve(config: Config) -> None:
    """Run the archive on ``[web] host``/``port`` until interrupted."""
    import uvicorn

    uvicorn.run(create_app(config), host=config.web_host, port=config.web_port, log_level="info",
                access_log=False)
