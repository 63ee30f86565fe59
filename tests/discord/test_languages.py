"""Which language, end to end: a French-speaking player on an English-speaking server reads
their own hand (text and picture) in French, while the table everyone sees follows the
server; the pictures are compared with the renderer's own output in each language."""

from __future__ import annotations

import logging

from cogs.ui.picture_words import picture_words
from rendering import render_hand, render_table
from tests.discord.fake import FakeDiscord
from tests.discord.fake.model import Message, User
from tests.discord.helpers import Bots, Table, bots, cog_problems, deal
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]


def french_hand(table: Table, user: User) -> Message | None:
    dms = [m for m in table.fake.dms(user) if "Ta main (" in m.content]
    return dms[-1] if dms else None


def picture(message: Message, name: str) -> bytes:
    return next(a.data for a in message.attachments if a.filename == name)


async def test_a_french_player_s_hand_is_french_and_the_table_follows_the_server(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    guild = fake.add_guild("Cards", locale="en-US")
    channel = guild.add_text_channel("rummy")
    ann = fake.add_user("ann", locale="fr")
    bob = fake.add_user("bob")
    async with bots.seat(guild, channel, [ann, bob]) as table:
        await deal(table)
        await eventually(lambda: french_hand(table, ann) is not None)
        await eventually(lambda: table.hand_dm(bob) is not None)
        session = table.session()
        names = dict(session.names)
        mine = french_hand(table, ann)
        assert mine is not None
        player = session.player_of(ann.id)
        assert player is not None
        view = session.view(player)
        french, english = picture_words("fr"), picture_words("en")
        assert picture(mine, "hand.png") == render_hand(view, words=french)
        assert picture(mine, "hand.png") != render_hand(view, words=english)
        # Bob reads English, and the table in the channel is in the server's language.
        theirs = table.hand_dm(bob)
        assert theirs is not None
        assert "Your hand (" in theirs.content
        shown = table.table_message()
        assert shown is not None
        everyone = session.view(None)
        assert picture(shown, "table.png") == render_table(everyone, names=names, words=english)
        assert picture(shown, "table.png") != render_table(everyone, names=names, words=french)
        # Ann's own answers stay French; a refusal too.
        said = await table.text(ann, "discard", card="Ж♠")
        assert said.startswith("Je n'ai pas compris ces cartes"), said
