"""The web table under load: many games, several open pages each, moves made from the pages.

One process holds the sessions (a SQLite file), the web server and the pages' WebSocket
clients (aiohttp, as a browser's socket would be driven); no Discord. Each game seats two
people; each opens their seat's page and ``--pages`` - 2 spectators open theirs. Moves (a
draw from the stock, then a discard the frame offers) are made at ``--rate`` moves a second
in all, by the player whose turn it is, from their page. Printed: the time from a move's send
to the moment every page of its game holds the table it made (median and 99th percentile),
and the process's memory per open page (clients included, so an upper bound of the
server's).

    .venv/bin/python benchmarks/bench_web.py --games 200 --pages 4 --rate 100 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402

from bot.infrastructure.settings import Secret, WebSettings  # noqa: E402
from bot.rummy import preset  # noqa: E402
from bot.sessions import Session, SessionManager  # noqa: E402
from web.server import WebTable  # noqa: E402

SECRET = "a benchmark's web secret, long enough"


@dataclass
class Page:
    socket: aiohttp.ClientWebSocketResponse
    player: str | None
    seq: int = -1
    frame: dict[str, Any] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def listen(self) -> None:
        async for message in self.socket:
            if message.type is not aiohttp.WSMsgType.TEXT:
                return
            data = json.loads(message.data)
            if data.get("t") == "table" and data["seq"] >= self.seq:
                self.seq, self.frame = data["seq"], data
                self.changed.set()


@dataclass
class Game:
    session: Session
    pages: list[Page]
    shown: list[float] = field(default_factory=list)

    def page_of(self, player: str) -> Page:
        return next(p for p in self.pages if p.player == player)

    async def move(self) -> None:
        """The current player's next move from their page; returns once every page has the
        table it made."""
        current = self.session.view(None).current
        if current is None:
            return
        page = self.page_of(current)
        frame = page.frame
        can = frame["can"]
        if can["stock"]:
            move: dict[str, Any] = {"type": "draw"}
        elif can["discard"]:
            move = {"type": "discard", "card": can["discard"][0]}
        else:
            return
        target = self.session.seq + 1
        start = time.perf_counter()
        await page.socket.send_str(json.dumps({"t": "move", "turn": frame["turn"], "move": move}))
        for each in self.pages:
            while each.seq < target:
                each.changed.clear()
                await asyncio.wait_for(each.changed.wait(), 30)
        self.shown.append(time.perf_counter() - start)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def rss() -> int:
    """The process's resident memory in bytes."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096


async def open_page(
    http: aiohttp.ClientSession, server: WebTable, link: str, game_id: int, player: str | None
) -> Page:
    async with http.get(link) as answer:
        assert answer.status == 200, await answer.text()
    url = f"{server.settings.url}/game/{game_id}/ws"
    ws = await http.ws_connect(url, origin=server.settings.url)
    return Page(ws, player)


async def main(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-web-"))
    sessions = await SessionManager.open(folder / "rummy.sqlite3")
    port = free_port()
    settings = WebSettings(port=port, url=f"http://127.0.0.1:{port}", secret=Secret(SECRET))
    server = WebTable(sessions, settings, SECRET.encode())
    await server.start()
    games: list[Game] = []
    listeners: list[asyncio.Task[None]] = []
    clients: list[aiohttp.ClientSession] = []
    try:
        base = rss()
        for number in range(args.games):
            host, guest = 10 + 2 * number, 11 + 2 * number
            session = await sessions.create_lobby(
                guild_id=1,
                channel_id=1000 + number,
                host_id=host,
                host_name=f"p{host}",
                ruleset=preset("classic"),
                seed=number,
            )
            await session.join(guest, f"p{guest}")
            await session.start(host, moderator=False)
            pages = []
            for index in range(args.pages):
                http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
                clients.append(http)
                if index < 2:
                    user = (host, guest)[index]
                    link, player = server.link(session.game_id, user, "en"), str(user)
                else:
                    link, player = server.watch_link(session.game_id, "en"), None
                pages.append(await open_page(http, server, link, session.game_id, player))
            games.append(Game(session, pages))
        listeners = [asyncio.create_task(p.listen()) for g in games for p in g.pages]
        for game in games:
            for page in game.pages:
                while page.seq < 0:
                    page.changed.clear()
                    await asyncio.wait_for(page.changed.wait(), 30)
        per_page = (rss() - base) / (args.games * args.pages)
        print(f"{args.games} games, {args.pages} pages each: {per_page / 1024:.0f} KiB per page")

        moving: dict[int, asyncio.Task[None]] = {}
        end = time.perf_counter() + args.seconds
        interval, turn, moves = 1 / args.rate, 0, 0
        next_at = time.perf_counter()
        while time.perf_counter() < end:
            # The next game not waiting for its last move to show (at most one move a game).
            for _ in range(len(games)):
                number, turn = turn % len(games), turn + 1
                if number not in moving:
                    break
            else:
                await asyncio.sleep(interval)
                continue
            task = asyncio.create_task(games[number].move())
            moving[number] = task
            task.add_done_callback(lambda _, n=number: moving.pop(n, None))  # type: ignore[misc]
            moves += 1
            next_at += interval
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        if moving:
            await asyncio.gather(*moving.values())
        shown = sorted(t for g in games for t in g.shown)
        p99 = shown[int(len(shown) * 0.99) - 1] if len(shown) >= 100 else shown[-1]
        print(
            f"{moves} moves at {args.rate:g}/s: a move on every page of its game in"
            f" {statistics.median(shown) * 1000:.1f} ms (median), {p99 * 1000:.1f} ms (p99)"
        )
    finally:
        for task in listeners:
            task.cancel()
        for http in clients:
            await http.close()
        await server.stop()
        await sessions.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--pages", type=int, default=4)
    parser.add_argument("--rate", type=float, default=50.0, help="moves a second in all")
    parser.add_argument("--seconds", type=float, default=10.0)
    asyncio.run(main(parser.parse_args()))
