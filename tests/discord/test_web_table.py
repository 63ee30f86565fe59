"""The web table end to end: the bot on the fake Discord serves it, people open the links
``/rummy web`` gives them in headless Chromium, and the thread's table follows their moves.

One browser serves the whole module (each test opens its own contexts), so the module's
tests share one event loop: the fake and the bots are made in it too.
"""

from __future__ import annotations

import json
import re
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Page, expect

from bot.infrastructure.settings import Secret, WebSettings
from bot.rummy import Phase, preset
from bot.sessions import Session, SessionManager
from tests.browser import Frames, chromium
from tests.discord.conftest import BotFactory, serving, starting
from tests.discord.fake import FakeDiscord, User
from tests.discord.helpers import Bots, Table, cog_problems, deal
from tests.waiting import PATIENCE, eventually
from web.server import WebTable
from web.tokens import Pass, Signer

__all__ = ["cog_problems"]

pytestmark = pytest.mark.asyncio(loop_scope="module")

SECRET = "a web secret for the tests, long enough"
WAIT = PATIENCE * 1000
"""Playwright counts in milliseconds."""
LINK = re.compile(r"(https?://\S+/t/\S+)")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with chromium() as found:
        yield found


@pytest_asyncio.fixture(loop_scope="module")
async def fake(fake_options: dict[str, Any]) -> AsyncIterator[FakeDiscord]:
    async with serving(fake_options) as server:
        yield server


@pytest_asyncio.fixture(loop_scope="module")
async def bot_factory(fake: FakeDiscord) -> AsyncIterator[BotFactory]:
    async with starting(fake) as start:
        yield start


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def web_settings() -> WebSettings:
    port = free_port()
    return WebSettings(port=port, url=f"http://127.0.0.1:{port}", secret=Secret(SECRET))


@pytest.fixture
def bots(
    fake: FakeDiscord, bot_factory: BotFactory, tmp_path: Path, web_settings: WebSettings
) -> Bots:
    return Bots(fake, bot_factory, tmp_path / "rummy.sqlite3", web=web_settings)


async def links(table: Table, user: User) -> list[str]:
    """The links of ``user``'s answer to ``/rummy web``: their seat's first, then the
    spectators'."""
    said = await table.text(user, "rummy web")
    return LINK.findall(said)


async def open_page(browser: Browser, link: str, *, width: int = 1024) -> tuple[Page, Frames]:
    context: BrowserContext = await browser.new_context(viewport={"width": width, "height": 800})
    page = await context.new_page()
    frames = Frames()
    frames.listen(page)
    await page.goto(link)
    await expect(page.locator("#status")).not_to_have_text(re.compile("Connecting"), timeout=WAIT)
    return page, frames


async def tab_to(page: Page, selector: str) -> None:
    """Press Tab until the focus is on ``selector`` (the keyboard alone)."""
    for _ in range(80):
        await page.keyboard.press("Tab")
        if await page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


async def layout_problems(page: Page) -> dict[str, Any]:
    """What overflows the page's width, and every text drawn smaller than 12 CSS px."""
    found: dict[str, Any] = await page.evaluate(
        """() => {
            const small = [];
            for (const node of document.querySelectorAll("body *")) {
                const own = [...node.childNodes].some(
                    (c) => c.nodeType === 3 && c.textContent.trim());
                const size = parseFloat(getComputedStyle(node).fontSize);
                if (own && size < 12) small.push(`${node.tagName} ${size}px`);
            }
            const width = document.documentElement.clientWidth;
            const wide = [...document.querySelectorAll("body *")]
                .filter((n) => n.getBoundingClientRect().right > width + 0.5)
                .map((n) => n.tagName + "." + n.className);
            return {scroll: document.documentElement.scrollWidth, width, small, wide};
        }"""
    )
    return found


def seat_user(table: Table, session: Session) -> tuple[User, User]:
    """(whose turn it is, the other player)."""
    current = session.view(None).current
    first, second = table.players
    return (first, second) if str(first.id) == current else (second, first)


async def test_two_players_play_from_their_browsers_and_the_thread_follows(
    bots: Bots, browser: Browser, cog_problems: list[Any]
) -> None:
    async with bots.table("ann", "bob") as table:
        await deal(table)
        session = table.session()
        mover, waiter = seat_user(table, session)
        mover_seat, watch = await links(table, mover)
        # The other player opens it from the table message's Open table button.
        shown = table.table_message()
        assert shown is not None
        press = await table.fake.click(waiter, shown, shown.button("Open table")["custom_id"])
        await press.wait_until(lambda i: bool(i.messages) and bool(i.messages[-1].content))
        waiter_seat, _ = LINK.findall(press.messages[-1].content)
        phone, _ = await open_page(browser, mover_seat, width=360)
        desk, _ = await open_page(browser, waiter_seat)
        spectator, seen = await open_page(browser, watch, width=360)
        assert phone.url.endswith(f"/game/{session.game_id}")  # the link's pass left the bar

        await expect(phone.locator("#status")).to_have_text("Your turn.", timeout=WAIT)
        await expect(desk.locator("#status")).to_have_text(f"{mover.name}'s turn.", timeout=WAIT)
        await expect(spectator.locator(".hand")).to_have_count(0)
        for page, width in ((phone, 360), (desk, 1024)):
            drawn = await layout_problems(page)
            assert drawn["scroll"] <= width, drawn
            assert drawn["wide"] == [], drawn
            assert drawn["small"] == [], drawn

        # The first player, by clicks on a phone: draw, choose a card, discard it.
        before = table.table_message()
        assert before is not None
        edits = before.edits
        dealt = len(session.view(str(mover.id)).hand)
        await phone.click("#stock")
        hand = phone.locator(".hand .card")
        await expect(hand).to_have_count(dealt + 1, timeout=WAIT)
        chosen = await hand.first.get_attribute("aria-label")
        await hand.first.click()
        await expect(hand.first).to_have_attribute("aria-pressed", "true")
        await phone.click("#discard")
        await expect(desk.locator("#status")).to_have_text("Your turn.", timeout=WAIT)
        await expect(phone.locator(".hand .card")).to_have_count(dealt, timeout=WAIT)
        await expect(desk.locator(".pile .card").last).to_have_attribute(
            "aria-label", f"{chosen}: Take the top card of the pile"
        )
        # The thread's table message follows, edited in place.
        await eventually(lambda: table.table_message() is before and before.edits > edits)
        await eventually(lambda: "discarded" in before.content)

        # The second player, by the keyboard alone: take the pile's card, discard another.
        await tab_to(desk, ".pile button.card")
        await desk.keyboard.press("Enter")
        await expect(desk.locator(".hand .card")).to_have_count(dealt + 1, timeout=WAIT)
        await tab_to(desk, ".hand .card:not(.drawn)")
        await desk.keyboard.press("Space")
        await expect(desk.locator(".hand .card[aria-pressed=true]")).to_have_count(1)
        await tab_to(desk, "#discard")
        await desk.keyboard.press("Enter")
        await expect(phone.locator("#status")).to_have_text("Your turn.", timeout=WAIT)
        await eventually(lambda: session.view(None).phase is Phase.DRAW)
        assert session.view(None).current == str(mover.id)
        await expect(spectator.locator(".recent li")).to_have_count(4, timeout=WAIT)
        # Reloaded, the page opens by its cookie (the link's pass is no longer in the address).
        await desk.reload()
        await expect(desk.locator("#status")).to_have_text(f"{mover.name}'s turn.", timeout=WAIT)
        await expect(desk.locator(".hand .card")).to_have_count(dealt, timeout=WAIT)

        # The spectator's page was sent tables, none with a hand or a held card in it.
        tables = seen.tables()
        assert len(tables) >= 5
        assert all(f["me"] is None and f["hand"] == [] and "drawn" not in f for f in tables)
        public = {c["c"] for f in tables for c in f["pile"]}
        public |= {c["c"] for f in tables for m in f["melds"] for c in m["cards"]}
        held = {c.code for user in table.players for c in session.view(str(user.id)).hand}
        text = json.dumps(seen.received)
        assert [code for code in held - public if f'"{code}"' in text] == []
        for page in (phone, desk, spectator):
            await page.context.close()


async def test_a_meld_and_a_lay_off_chosen_card_by_card(browser: Browser, tmp_path: Path) -> None:
    """Through the page alone (no Discord here): the seeded deal gives the first player
    10♣ J♣ Q♣ and, once drawn, K♣ to lay off on them."""
    sessions = await SessionManager.open(tmp_path / "rummy.sqlite3")
    port = free_port()
    settings = WebSettings(port=port, url=f"http://127.0.0.1:{port}", secret=Secret(SECRET))
    server = WebTable(sessions, settings, SECRET.encode())
    await server.start()
    try:
        session = await sessions.create_lobby(
            guild_id=1, channel_id=2, host_id=11, host_name="ann", ruleset=preset("classic"), seed=2
        )
        await session.join(12, "bob")
        await session.start(11, moderator=False)
        assert session.view(None).current == "11"
        link = server.link(session.game_id, 11, "en", four_colour=True, by_rank=True)
        page, _ = await open_page(browser, link)
        await page.click("#stock")
        await expect(page.locator('[data-key="hand-Kc"]')).to_have_count(1, timeout=WAIT)
        # The person's choices: four colours, the hand by rank.
        assert await page.evaluate("() => document.body.classList.contains('four')")
        keys = await page.locator(".hand .card").evaluate_all("cs => cs.map(c => c.dataset.key)")
        by_rank = sorted(session.view("11").hand, key=lambda c: c.rank_sort_key)
        assert keys == [f"hand-{c.code}" for c in by_rank]
        # Three cards that make no meld: refused in words, nothing changed.
        other = next(c for c in by_rank if c.suit is not None and c.suit.letter != "c")
        for code in ("10c", "Jc", other.code):
            await page.click(f'[data-key="hand-{code}"]')
        await page.click("#meld")
        refusal = re.compile(r"^Not allowed: 10♣ J♣ \S+ is no meld")
        await expect(page.locator("#said")).to_have_text(refusal, timeout=WAIT)
        assert session.view(None).melds == ()
        await page.click("#clear")
        await expect(page.locator(".hand .card[aria-pressed=true]")).to_have_count(0)
        for code in ("10c", "Jc", "Qc"):
            await page.click(f'[data-key="hand-{code}"]')
        await page.click("#meld")
        meld = page.locator(".meld .card")
        await expect(meld).to_have_count(3, timeout=WAIT)
        await expect(meld.first).to_have_attribute("aria-label", "10 of clubs")
        await page.click('[data-key="hand-Kc"]')
        await page.click('[data-key="layoff-1"]')
        await expect(meld).to_have_count(4, timeout=WAIT)
        await expect(meld.last).to_have_attribute("aria-label", "King of clubs")
        assert [str(p.card) for p in session.view(None).melds[0].cards] == [
            "10♣",
            "J♣",
            "Q♣",
            "K♣",
        ]
        await page.context.close()
    finally:
        await server.stop()
        await sessions.close()


async def test_links_that_open_nothing_are_refused(bots: Bots, web_settings: WebSettings) -> None:
    async with bots.table("ann", "bob") as table:
        await deal(table)
        session = table.session()
        ann = table.players[0]
        seat, watch = await links(table, ann)
        stock = session.view(None).stock_size
        url = web_settings.url
        signer = Signer(SECRET.encode())
        game = session.game_id
        later = 2**40
        forged = seat[:-3] + ("AAA" if not seat.endswith("AAA") else "BBB")
        expired = signer.write(Pass(game, ann.id, 1, "en"))
        other_game = signer.write(Pass(game + 1, ann.id, later, "en"))
        stranger = signer.write(Pass(game, 999, later, "en"))
        cases = {
            forged: "not valid",
            f"{url}/t/{expired}": "expired",
            f"{url}/t/{other_game}": "not being played",
            f"{url}/t/{stranger}": "has no seat",
            f"{url}/game/{game}": "Open this page with the link",
        }
        jar = aiohttp.CookieJar(unsafe=True)
        async with aiohttp.ClientSession(cookie_jar=jar) as http:
            for link, why in cases.items():
                async with http.get(link) as answer:
                    assert answer.status == 403, link
                    assert why in await answer.text(), link
                    assert "default-src 'none'" in answer.headers["Content-Security-Policy"]
            # A spectator's cookie opens a socket that never takes a move.
            async with http.get(watch) as answer:
                assert answer.status == 200
                assert answer.cookies[f"rummy{game}"]["httponly"]
                assert answer.cookies[f"rummy{game}"]["samesite"] == "Strict"
            socket_url = f"{url}/game/{game}/ws"
            with pytest.raises(aiohttp.WSServerHandshakeError) as wrong:
                await http.ws_connect(socket_url, origin="https://elsewhere.example")
            assert wrong.value.status == 403
            async with http.ws_connect(socket_url, origin=url) as ws:
                hello = await ws.receive_json(timeout=PATIENCE)
                assert hello["t"] == "hello"
                assert hello["me"] is None
                assert (await ws.receive_json(timeout=PATIENCE))["hand"] == []
                await ws.send_json({"t": "move", "turn": 1, "move": {"type": "draw"}})
                said = await ws.receive_json(timeout=PATIENCE)
                assert said["text"] == "Spectators watch; only the players make moves."
                # A page that keeps sending past its limit is told, then closed.
                for _ in range(40):
                    await ws.send_str("{}")
                texts = []
                async for message in ws:
                    if message.type is aiohttp.WSMsgType.TEXT:
                        texts.append(json.loads(message.data)["text"])
                assert ws.close_code == 1008
                assert "Too many messages at once: wait a moment." in texts
        assert session.view(None).stock_size == stock  # nothing was drawn


async def test_without_the_web_server_the_command_says_how_to_switch_it_on(
    fake: FakeDiscord, bot_factory: BotFactory, tmp_path: Path
) -> None:
    off = Bots(fake, bot_factory, tmp_path / "rummy.sqlite3")
    async with off.table("ann", "bob") as table:
        await deal(table)
        said = await table.text(table.players[0], "rummy web")
        assert "WEB_PORT" in said
        assert "WEB_URL" in said
        assert LINK.search(said) is None
