"""Names are text: a member whose name is markdown or looks like a mention shows as its
characters in every message, and pings nobody."""

from __future__ import annotations

import logging
import re

from tests.discord.fake import Channel, FakeDiscord, Message, User
from tests.discord.helpers import Bots, bots, cog_problems
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]

LINK = "[Rules](https://evil.co/x)"
BOLD = "**bold** @everyone"


def raw_markup(content: str, bystander: User) -> list[str]:
    """The pieces of the names that would format the message or look like a mention."""
    unescaped = (r"(?<!\\)\[Rules\]\(", r"(?<!\\)\*\*bold", "@everyone")
    found = [x for x in unescaped if re.search(x, content)]
    found += re.findall(rf"<@!?{bystander.id}>", content)
    return found


def shows_names(content: str, bystander: User) -> bool:
    """The three names, escaped: their characters, each special one made inert."""
    return (
        "\\[Rules](https://evil.co/x)" in content
        and "\\*\\*bold\\*\\* @\u200beveryone" in content
        and f"<\u200b@\u200b{bystander.id}>" in content
    )


def bot_messages(fake: FakeDiscord, *where: Channel) -> list[Message]:
    out: list[Message] = []
    for place in where:
        out.extend(fake.messages(place))
    return [m for m in out if m.author.id == fake.bot_user.id]


async def test_markup_names_show_as_text_and_ping_nobody(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    guild = fake.add_guild("Cards")
    channel = guild.add_text_channel("rummy")
    zed = fake.add_user("zed")  # mentioned by a name, never a player
    link = fake.add_user(LINK)
    bold = fake.add_user(BOLD)
    fake_mention = fake.add_user(f"<@{zed.id}>")
    async with bots.seat(guild, channel, [link, bold, fake_mention]) as table:
        lobby = (await table.answer(link, "rummy new", variant="classic")).message
        assert lobby is not None
        for user in (bold, fake_mention):
            await table.text(user, "rummy join")
        await eventually(lambda: shows_names(lobby.content, zed))
        assert raw_markup(lobby.content, zed) == []

        await table.text(link, "rummy start")
        await eventually(lambda: table.table_message() is not None)
        table_message = table.table_message()
        assert table_message is not None
        await eventually(lambda: shows_names(table_message.content, zed))
        await eventually(lambda: table.hand_dm(link) is not None)
        dm = table.hand_dm(link)
        assert dm is not None
        await eventually(lambda: shows_names(dm.content, zed))

        answer = await table.text(link, "league player", user=fake_mention)
        assert f"<\u200b@\u200b{zed.id}>" in answer
        answer = await table.text(fake_mention, "league player", user=bold)
        assert "\\*\\*bold\\*\\* @\u200beveryone" in answer

        sent = bot_messages(fake, channel, table.here, fake.dm_channel(link))
        assert sent
        for message in sent:
            assert raw_markup(message.content, zed) == [], message.content
            assert not message.pinged(zed)
        # The thread's name is plain text: the host's name as they wrote it.
        assert LINK in table.here.name
