"""Why Discord cannot be reached, in words an operator understands."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import discord
import pytest

from bot.__main__ import Unreachable, probe


@pytest.fixture
def api_base() -> Iterator[None]:
    saved = discord.http.Route.BASE
    yield
    discord.http.Route.BASE = saved


@pytest.mark.usefixtures("api_base")
async def test_refused() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        discord.http.Route.BASE = f"http://127.0.0.1:{sock.getsockname()[1]}/api/v10"
        with pytest.raises(Unreachable, match=r"^connection refused$"):
            await probe(timeout=5)


@pytest.mark.usefixtures("api_base")
async def test_no_answer() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(4)
        discord.http.Route.BASE = f"http://127.0.0.1:{sock.getsockname()[1]}/api/v10"
        with pytest.raises(Unreachable, match=r"^no answer within 0.3 s$"):
            await probe(timeout=0.3)


@pytest.mark.usefixtures("api_base")
async def test_unknown_name() -> None:
    discord.http.Route.BASE = "http://discord.invalid/api/v10"
    with pytest.raises(Unreachable, match=r"DNS|no answer"):
        await probe(timeout=5)
