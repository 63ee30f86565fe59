"""Headless Chromium for the web table's tests, driven by Playwright.

The system's Chromium is used (Debian's ``chromium``; ``RUMMY_TEST_CHROMIUM`` names another):
Playwright's own browser download is never needed. Without a browser the tests fail, saying
how to install one; they are never skipped (``.ci/run`` installs it when missing).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.async_api import Browser, Page, WebSocket, async_playwright

ENV = "RUMMY_TEST_CHROMIUM"
ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
"""No network of its own, no first-run pages, no updates: only the pages a test opens.
Playwright gives each launch a fresh profile (user data folder) and removes it after."""


def chromium_path() -> str:
    chosen = os.environ.get(ENV) or shutil.which("chromium") or "/usr/bin/chromium"
    if not os.access(chosen, os.X_OK):
        pytest.fail(
            f"no Chromium at {chosen}: install Debian's chromium (apt-get install chromium)"
            f" or name one in {ENV}; the web table's tests never skip",
            pytrace=False,
        )
    return chosen


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    """One headless browser (a test module shares it: each test opens its own contexts)."""
    path = chromium_path()
    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=path, args=list(ARGS))
        try:
            yield browser
        finally:
            await browser.close()


@dataclass
class Frames:
    """Every WebSocket frame a page received, as parsed JSON."""

    received: list[dict[str, Any]] = field(default_factory=list)

    def listen(self, page: Page) -> None:
        def opened(socket: WebSocket) -> None:
            socket.on("framereceived", self._got)

        page.on("websocket", opened)

    def _got(self, payload: str | bytes) -> None:
        text = payload.decode("utf-8") if isinstance(payload, bytes) else payload
        self.received.append(json.loads(text))

    def tables(self) -> list[dict[str, Any]]:
        return [f for f in self.received if f.get("t") == "table"]
