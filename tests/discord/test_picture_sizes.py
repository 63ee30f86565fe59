"""The pictures people see change size only when they must, as Discord receives them: a
picture that changes size between two edits makes the message, and the menus under it, jump.

A four-player classic game is played to its end by slash commands; every table and hand
picture the bot uploads is read back from the fake Discord. A round's tables only grow, as
melds are made, and never past 0.65 of their width (the game's last table, which gives the
result, may differ); every hand keeps one size (a classic hand never passes 18 cards, so
its frame never needs a second row)."""

from __future__ import annotations

import logging
import re
import struct
from collections import defaultdict

from bot.sessions import SessionStatus
from tests.discord.fake import Message
from tests.discord.helpers import Bots, bots, cog_problems, deal, play_to_end

__all__ = ["bots", "cog_problems"]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header (its first chunk is always IHDR)."""
    assert data[:8] == PNG_SIGNATURE, "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_png_size_reads_the_header() -> None:
    header = PNG_SIGNATURE + struct.pack(">I", 13) + b"IHDR" + struct.pack(">II", 960, 449)
    assert png_size(header) == (960, 449)


async def test_tables_only_grow_in_a_round_and_hands_keep_one_size(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    tables: dict[int, list[tuple[int, int]]] = defaultdict(list)
    uploads: dict[str, int] = defaultdict(int)
    hands: set[tuple[int, int]] = set()

    def on_message(event: str, message: Message) -> None:
        if event == "delete":
            return
        for attachment in message.attachments:
            if attachment.filename == "table.png":
                found = re.search(r"round (\d+)", message.content)
                assert found, message.content
                if "Game over" not in message.content:
                    tables[int(found[1])].append(png_size(attachment.data))
            elif attachment.filename == "hand.png":
                hands.add(png_size(attachment.data))
            else:
                continue
            uploads[attachment.filename] += 1

    async with bots.table("ann", "bob", "cat", "dan") as table:
        table.fake.add_listener(on_message)
        await deal(table, target=1)
        session = table.session()
        await play_to_end(table)
        assert session.status is SessionStatus.FINISHED

    # Every edit re-reads the current attachments: the counts are of showings, not uploads.
    assert uploads["table.png"] >= 8
    assert uploads["hand.png"] >= 8
    assert tables, "no table picture was shown"
    for number, sizes in tables.items():
        heights = [height for _, height in sizes]
        assert heights == sorted(heights), f"round {number} showed tables of {sizes}"
        assert {width for width, _ in sizes} == {960}
        assert max(heights) <= 0.65 * 960
    assert len(hands) == 1, f"hands were shown at {sorted(hands)}"
