"""The web table's server: the links, the pages, and one WebSocket per open page.

Each page's socket hears the committed events of its game (a session listener, like the
Discord display) and is sent the table as the engine's view for that person shows it; a
seated player's moves go through :meth:`bot.sessions.Session.apply`, checked exactly as a
slash command's. Nothing here reads the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from aiohttp import WSMsgType
from aiohttp import web as aioweb

from bot import sessions as s
from bot.i18n import catalog_locale, t
from bot.infrastructure.settings import WebSettings
from bot.rummy import Action, GameView, PlayerError
from bot.rummy.actions import action_from_json
from bot.rummy.errors import RummyError
from cogs.ui import present
from cogs.ui.replies import error_text
from web import frames
from web.limits import Bucket
from web.page import refusal_page, security_headers, static_files, table_page
from web.tokens import (
    COOKIE_SECONDS,
    LINK_SECONDS,
    SPECTATOR,
    WATCH_SECONDS,
    BadPass,
    Pass,
    Signer,
)
from web.words import page_words

log = logging.getLogger(__name__)

RECENT = 8
"""Moves each page lists."""
MESSAGE_LIMIT = 4096
"""Bytes a page's message may have (a move is far smaller)."""
SEND_TIMEOUT = 5.0
"""Seconds a page may take to take a frame before it is closed (a stalled tab)."""
OUTBOX = 64
"""Frames waiting for one page at most; a page that falls further behind is closed (it
reloads to catch up), so a stalled tab never holds memory or the game's listeners."""


@dataclass(eq=False)
class Connection:
    """One open page: whose eyes it is (``player`` None: a spectator's) and its limit."""

    socket: aioweb.WebSocketResponse
    game_id: int
    player: str | None
    locale: str
    by_rank: bool = False
    """The hand ordered by rank (the person's choice), else by suit."""
    bucket: Bucket = field(default_factory=Bucket)
    outbox: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(OUTBOX))
    """What to send, in order; its own task sends it, so nobody waits for a slow page."""

    def offer(self, text: str) -> None:
        """Queue ``text`` for the page; a page too far behind is told to go (its writer
        closes it)."""
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.finish()

    def finish(self) -> None:
        """Let the writer send what is queued, then stop."""
        if self.outbox.full():
            self.outbox.get_nowait()
        self.outbox.put_nowait(None)


@dataclass(frozen=True, slots=True)
class Move:
    """A committed move, kept for the pages' list of recent moves."""

    actor: str
    action: Action
    after: GameView | None


class WebTable:
    """The server; ``start`` binds it, ``stop`` closes every page and the port."""

    def __init__(
        self,
        sessions: s.SessionManager,
        settings: WebSettings,
        secret: bytes,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.sessions = sessions
        self.settings = settings
        self.signer = Signer(secret)
        self.clock = clock
        self.pages: dict[int, set[Connection]] = {}
        self.recent: dict[int, deque[Move]] = {}
        self._files = static_files()
        ws_origin = settings.origin.replace("http", "ws", 1)
        self._headers = security_headers(ws_origin)
        self._runner: aioweb.AppRunner | None = None

    # --- links -----------------------------------------------------------------------------

    def link(self, game_id: int, user_id: int, locale: str, **look: bool) -> str:
        """A player's link: it opens their seat's page for :data:`LINK_SECONDS`. ``look``:
        the person's ``four_colour`` and ``by_rank`` choices."""
        return self._link(game_id, user_id, LINK_SECONDS, locale, look)

    def watch_link(self, game_id: int, locale: str, **look: bool) -> str:
        """A spectator's link (no hand), to share: it works for :data:`WATCH_SECONDS`."""
        return self._link(game_id, SPECTATOR, WATCH_SECONDS, locale, look)

    def _link(
        self, game_id: int, user_id: int, seconds: int, locale: str, look: Mapping[str, bool]
    ) -> str:
        granted = Pass(game_id, user_id, int(self.clock()) + seconds, locale, **look)
        return f"{self.settings.url}/t/{self.signer.write(granted)}"

    # --- running -----------------------------------------------------------------------------

    def app(self) -> aioweb.Application:
        app = aioweb.Application(client_max_size=MESSAGE_LIMIT)
        app.on_response_prepare.append(self._secure)
        app.router.add_get("/", self._home)
        app.router.add_get("/t/{token}", self._exchange)
        app.router.add_get("/game/{game:\\d+}", self._page)
        app.router.add_get("/game/{game:\\d+}/ws", self._socket)
        app.router.add_get("/static/{name}", self._static)
        return app

    async def start(self) -> None:
        runner = aioweb.AppRunner(self.app(), access_log=None, handle_signals=False)
        await runner.setup()
        site = aioweb.TCPSite(runner, self.settings.host, self.settings.port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self.sessions.add_listener(self.on_commit)
        log.info(
            "web table on %s:%s for %s", self.settings.host, self.settings.port, self.settings.url
        )

    async def stop(self) -> None:
        with contextlib.suppress(ValueError):
            self.sessions.remove_listener(self.on_commit)
        for page in [c for pages in self.pages.values() for c in pages]:
            with contextlib.suppress(Exception):
                await page.socket.close(code=1001, message=b"the bot is stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # --- what every answer carries ------------------------------------------------------------

    async def _secure(self, request: aioweb.Request, response: aioweb.StreamResponse) -> None:
        """Every answer, refusals and the socket's handshake included, carries the policy."""
        for name, value in self._headers.items():
            response.headers.setdefault(name, value)
        response.headers.setdefault("Cache-Control", "no-store")

    async def _home(self, request: aioweb.Request) -> aioweb.Response:
        return self._refused("web.refused.home", "en", status=200)

    async def _static(self, request: aioweb.Request) -> aioweb.Response:
        found = self._files.get(request.match_info["name"])
        if found is None:
            raise aioweb.HTTPNotFound()
        body, kind = found
        return aioweb.Response(
            body=body, content_type=kind, charset="utf-8", headers={"Cache-Control": "no-cache"}
        )

    def _refused(self, key: str, locale: str, *, status: int = 403) -> aioweb.Response:
        return aioweb.Response(
            text=refusal_page(key, locale), content_type="text/html", status=status
        )

    # --- the link and the page -----------------------------------------------------------------

    async def _exchange(self, request: aioweb.Request) -> aioweb.Response:
        """A link's pass traded for the page and a cookie; the link works for minutes, the
        cookie (sent only to this game's pages, never readable by a script) for hours."""
        try:
            granted = self.signer.read(request.match_info["token"], self.clock())
            self._admitted(granted, granted.game_id)
        except BadPass as bad:
            return self._refused(bad.key, _locale_of(request))
        response = self._table(granted)
        kept = dataclasses.replace(granted, expires=int(self.clock()) + COOKIE_SECONDS)
        response.set_cookie(
            _cookie_name(granted.game_id),
            self.signer.write(kept),
            max_age=COOKIE_SECONDS,
            path=f"/game/{granted.game_id}",
            httponly=True,
            samesite="Strict",
            secure=self.settings.secure,
        )
        return response

    async def _page(self, request: aioweb.Request) -> aioweb.Response:
        game_id = int(request.match_info["game"])
        try:
            granted = self._cookie_pass(request, game_id)
        except BadPass as bad:
            return self._refused(bad.key, _locale_of(request))
        return self._table(granted)

    def _table(self, granted: Pass) -> aioweb.Response:
        return aioweb.Response(
            text=table_page(granted.game_id, catalog_locale(granted.locale)),
            content_type="text/html",
        )

    def _cookie_pass(self, request: aioweb.Request, game_id: int) -> Pass:
        text = request.cookies.get(_cookie_name(game_id))
        if text is None:
            raise BadPass("web.refused.no_cookie")
        granted = self.signer.read(text, self.clock())
        self._admitted(granted, game_id)
        return granted

    def _admitted(self, granted: Pass, game_id: int) -> s.Session:
        """The live game a pass opens, or :class:`BadPass`: another game's pass, a game that
        is over, a person no longer seated."""
        if granted.game_id != game_id:
            raise BadPass("web.refused.other_game")
        session = self.sessions.by_game(game_id)
        if session is None or session.closed:
            raise BadPass("web.refused.closed")
        if not granted.watching and session.player_of(granted.user_id) is None:
            raise BadPass("web.refused.not_seated")
        return session

    # --- the live socket -----------------------------------------------------------------------

    async def _socket(self, request: aioweb.Request) -> aioweb.StreamResponse:
        game_id = int(request.match_info["game"])
        if request.headers.get("Origin", "").lower() != self.settings.origin:
            raise aioweb.HTTPForbidden(text="wrong origin")
        try:
            granted = self._cookie_pass(request, game_id)
            session = self._admitted(granted, game_id)
        except BadPass as bad:
            raise aioweb.HTTPForbidden(text=bad.key) from None
        socket = aioweb.WebSocketResponse(heartbeat=30.0, max_msg_size=MESSAGE_LIMIT)
        await socket.prepare(request)
        locale = catalog_locale(granted.locale)
        player = None if granted.watching else session.player_of(granted.user_id)
        page = Connection(socket, game_id, player, locale, granted.by_rank)
        self.pages.setdefault(game_id, set()).add(page)
        writer = asyncio.create_task(self._write(page), name=f"web-page-{game_id}")
        try:
            hello = {"t": "hello", "words": page_words(locale), "me": player}
            page.offer(json.dumps({**hello, "fourColour": granted.four_colour}))
            page.offer(self._now_frame(session, page))
            async for message in socket:
                if message.type is not WSMsgType.TEXT:
                    break
                await self._heard(page, message.data)
                if page.bucket.exhausted:
                    page.finish()
                    await writer
                    await socket.close(code=1008, message=b"too many messages")
                    break
        finally:
            pages = self.pages.get(game_id)
            if pages is not None:
                pages.discard(page)
                if not pages:
                    del self.pages[game_id]
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer
        return socket

    async def _write(self, page: Connection) -> None:
        """Send the page its frames in order; one it does not take in time ends it."""
        while (text := await page.outbox.get()) is not None:
            try:
                await asyncio.wait_for(page.socket.send_str(text), SEND_TIMEOUT)
            except (TimeoutError, ConnectionError, RuntimeError):
                break
        if not page.socket.closed and not page.bucket.exhausted:
            with contextlib.suppress(Exception):
                await page.socket.close(code=1011, message=b"too slow")

    async def _heard(self, page: Connection, data: str) -> None:
        """A page's message: a move by the seated player, checked by the session."""
        if not page.bucket.take(asyncio.get_running_loop().time()):
            self._say(page, t("web.too_fast", page.locale))
            return
        if page.player is None:
            self._say(page, t("web.watching_only", page.locale))
            return
        try:
            action, turn = read_move(data)
        except (ValueError, KeyError, TypeError, RummyError):
            self._say(page, t("web.bad_move", page.locale))
            return
        session = self.sessions.by_game(page.game_id)
        if session is None:
            self._say(page, t("web.refused.closed", page.locale))
            return
        try:
            await session.apply(page.player, action, turn=turn)
        except PlayerError as error:
            self._say(page, error_text(error, page.locale, session.names))
        except Exception:
            log.exception("game %s: a move from the web table failed", page.game_id)
            self._say(page, t("error.unexpected", page.locale))

    def _say(self, page: Connection, text: str) -> None:
        page.offer(json.dumps({"t": "said", "text": text}, ensure_ascii=False))

    # --- frames -----------------------------------------------------------------------------

    def _now_frame(self, session: s.Session, page: Connection) -> str:
        if session.status is s.SessionStatus.LOBBY:
            return json.dumps({"t": "lobby"})
        view = session.view(page.player)
        legal = session.legal_actions(page.player) if page.player is not None else []
        moves = tuple(self.recent.get(page.game_id, ()))
        status = session.status.value
        return self._frame(page, view, session.names, legal, status, moves, session.seq)

    def _frame(
        self,
        page: Connection,
        view: GameView,
        names: Mapping[str, str],
        legal: Sequence[Action],
        status: str,
        moves: Sequence[Move],
        seq: int,
    ) -> str:
        recent = [
            present.move_text(names.get(m.actor, "?"), m.action, m.after, page.locale)
            for m in moves
        ]
        frame = frames.table_frame(
            view, names, legal, recent, status=status, seq=seq, by_rank=page.by_rank
        )
        return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))

    async def on_commit(self, event: s.Committed) -> None:
        """Every page of the game is sent the table as its person sees it now."""
        if event.kind is s.EventKind.ACTION and event.actor and event.action is not None:
            kept = self.recent.setdefault(event.game_id, deque(maxlen=RECENT))
            kept.append(Move(event.actor, event.action, event.views.get(event.actor)))
        pages = tuple(self.pages.get(event.game_id, ()))
        moves = tuple(self.recent.get(event.game_id, ()))
        if event.status not in (s.SessionStatus.LOBBY, s.SessionStatus.ACTIVE):
            self.recent.pop(event.game_id, None)
        if not pages:
            return
        names = {seat.player_id: seat.display_name for seat in event.seats}
        made: dict[tuple[str | None, str, bool], str] = {}
        for page in pages:
            key = (page.player, page.locale, page.by_rank)
            if key not in made:
                view = event.view(page.player)
                if view is None:
                    made[key] = json.dumps({"t": "lobby"})
                else:
                    legal = event.legal.get(page.player, ()) if page.player is not None else ()
                    made[key] = self._frame(
                        page, view, names, legal, event.status.value, moves, event.seq
                    )
            page.offer(made[key])


MOVE_FIELDS = ("type", "cards", "meld", "card", "depth")
"""What a page's move may say; a reading of the cards is the engine's to choose."""


def read_move(data: str) -> tuple[Action, int]:
    """A page's ``{"t": "move", "turn": n, "move": {...}}``: the action (in the engine's own
    JSON form) and the turn the page showed; ValueError, KeyError, TypeError or the engine's
    :class:`~bot.rummy.errors.SnapshotError` for anything else."""
    message = json.loads(data)
    if not isinstance(message, dict) or message.get("t") != "move":
        raise ValueError("not a move")
    turn, move = message["turn"], message["move"]
    if not isinstance(turn, int) or isinstance(turn, bool) or not isinstance(move, dict):
        raise ValueError("not a move")
    return action_from_json({k: v for k, v in move.items() if k in MOVE_FIELDS}), turn


def _cookie_name(game_id: int) -> str:
    return f"rummy{game_id}"


def _locale_of(request: aioweb.Request) -> str:
    """The catalog for a refusal page: the browser's first language."""
    first = request.headers.get("Accept-Language", "").split(",", 1)[0].split(";", 1)[0]
    return catalog_locale(first.strip() or None)
