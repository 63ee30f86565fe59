"""Names are text: a member whose name is markdown or looks like a mention shows as its
characters in every message, and pings nobody."""

from __future__ import annotations

import logging
import re

from bot.sessions import Brains
from tests.discord.fake import Channel, FakeDiscord, Message, User
from tests.discord.helpers import Bots, Table, bots, cog_problems, deal
from tests.waiting import PATIENCE, eventually

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


async def test_seat_notices_show_names_as_text(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    """Leaving, taking over a seat and missing turns: every notice and answer naming the
    people shows their names as text."""
    guild = fake.add_guild("Cards")
    channel = guild.add_text_channel("rummy")
    zed = fake.add_user("zed")
    link = fake.add_user(LINK)
    bold = fake.add_user(BOLD)
    mention = fake.add_user(f"<@{zed.id}>")
    async with bots.seat(guild, channel, [link, bold], brains=Brains(delay=0)) as table:
        await deal(table, target=5)
        session = table.session()
        seq = session.seq
        await session.leave(link.id)  # the seat goes to a computer player, and is takeable
        await eventually(lambda: session.seq > seq)
        await eventually(lambda: _said(table, "left; a computer plays"))
        shown = table.table_message()
        assert shown is not None
        await eventually(lambda: any(":seat:take:" in c for c in shown.custom_ids()))
        took = await fake.click(mention, shown, shown.button("Take a seat")["custom_id"])
        await took.wait_until(lambda i: any("took over" in m.content for m in i.messages), PATIENCE)
        await eventually(lambda: _said(table, "takes over the seat of"))
        answers = [m.content for m in took.messages]
        player = session.player_of(bold.id)
        assert player is not None
        seq = session.seq
        await session.miss_turn(player, limit=1, stand_in="normal")
        await eventually(lambda: _said(table, "missed three turns"))
        sent = [m.content for m in bot_messages(fake, table.here)] + answers
        for content in sent:
            assert raw_markup(content, zed) == [], content
        said = "\n".join(sent)
        assert "\\[Rules](https://evil.co/x) left" in said, said
        assert f"<\u200b@\u200b{zed.id}> takes over the seat of 🤖 \\[Rules]" in said, said
        assert "You took over the seat of \\[Rules]" in said, said
        assert "\\*\\*bold\\*\\* @\u200beveryone missed three turns" in said, said


def _said(table: Table, text: str) -> bool:
    return any(text in m.content for m in bot_messages(table.fake, table.here))
