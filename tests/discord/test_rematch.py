"""Play again, the queue for the next game, lobbies that close themselves, and no
live-looking controls once a game is over or cancelled, end to end through the fake
Discord (the fake's stored messages are what people would see)."""

from __future__ import annotations

import logging
import time

from bot.sessions import SessionStatus
from tests.discord.fake import ApiError, Channel, FakeDiscord, Message, RequestRecord, User
from tests.discord.helpers import (
    Bots,
    Table,
    bots,
    cog_problems,
    deal,
    dm_exists,
    dm_has,
    play_to_end,
)
from tests.waiting import PATIENCE, eventually

__all__ = ["bots", "cog_problems"]


def bot_messages(fake: FakeDiscord, places: list[Channel], users: list[User]) -> list[Message]:
    """Every message the bot shows in ``places`` and in the DMs of ``users``."""
    found = [m for place in places for m in fake.messages(place)]
    found += [m for user in users for m in fake.dms(user)]
    return [m for m in found if m.author.id == fake.bot_user.id]


async def clicked(fake: FakeDiscord, user: User, message: Message, custom_id: str) -> str:
    """The text of the bot's answer to ``user`` pressing ``custom_id`` on ``message``."""
    ix = await fake.click(user, message, custom_id)
    await ix.response()
    await ix.wait_until(
        lambda i: any(m.content for m in i.messages) and not any(m.loading for m in i.messages),
    )
    return str(ix.messages[-1].content)


def _is_table(message: Message) -> bool:
    return any(a.filename == "table.png" for a in message.attachments)


def lobby_in(fake: FakeDiscord, channel: Channel, game_id: int) -> Message | None:
    start = f"rummy:lobby:start:{game_id}"
    return next((m for m in fake.messages(channel) if start in m.custom_ids()), None)


async def test_play_again_after_a_restart_seats_the_table_and_the_queue_and_starts(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    fake = bots.fake
    async with bots.table("ann", "bob", "cat") as table:
        ann, bob, cat = table.players
        table.players = [ann, bob]
        await deal(table, target=1)
        thread = table.here
        game_id = table.session().game_id
        # Cat is not seated and no seat can be taken: the queue for the next game.
        assert "in the queue for the next game here" in await table.text(cat, "rummy join")
        assert "already in the queue" in await table.text(cat, "rummy join")
        assert "left the queue" in await table.text(cat, "rummy leave")
        assert "in the queue for the next game here" in await table.text(cat, "rummy join")
        await play_to_end(table)
        await eventually(lambda: thread.archived)
        final = next(m for m in fake.messages(thread) if m.content.startswith("**Game over.**"))
        # The end: nothing looks live but Play again on the result.
        for message in bot_messages(fake, [table.channel, thread], [ann, bob]):
            wanted = [f"rummy:again:{game_id}"] if message is final else []
            assert message.custom_ids() == wanted, message.content
        guild, channel = table.guild, table.channel
    # After a restart (the button carries the game id only): Bob, a player, plays again.
    async with bots.seat(guild, channel, [ann, bob, cat]) as again:
        said = await clicked(fake, bob, final, f"rummy:again:{game_id}")
        new = next(iter(again.sessions.sessions.values()))
        lobby = lobby_in(fake, channel, new.game_id)
        assert lobby is not None
        assert "Host: bob" in lobby.content
        assert "Players (3/4): ann, bob, cat" in lobby.content
        # It opens where /rummy new would have: a thread started from the lobby message.
        await eventually(lambda: lobby.thread is not None and again.sessions.get(lobby.id) is new)
        new_thread = lobby.thread
        assert new_thread is not None
        assert f"A new table is open in <#{new_thread.id}>" in said, said
        await eventually(lambda: any(m.pinged(cat) for m in fake.messages(new_thread)))
        told = [m for m in fake.messages(new_thread) if m.pinged(cat)]
        assert "a seat is yours" in told[0].content
        # The last game's other player hears it too, in that same one message.
        assert told[0].pinged(ann)
        assert not told[0].pinged(bob)
        assert "the game is on again here" in told[0].content
        assert new.ruleset.target == 1
        # A second click opens nothing more, says why, and leads to the new table.
        said = await clicked(fake, ann, final, f"rummy:again:{game_id}")
        assert "played again already" in said, said
        assert f"<#{new_thread.id}>" in said, said
        assert len(again.sessions.sessions) == 1
        # The host starts it with the usual Start.
        await clicked(fake, bob, lobby, f"rummy:lobby:start:{new.game_id}")
        await eventually(lambda: new.status is SessionStatus.ACTIVE)
        # Everything of the deal is shown before the bot stops.
        await eventually(lambda: any(_is_table(m) for m in fake.messages(new_thread)))
        await eventually(dm_exists(again, cat))
        await eventually(lambda: time.monotonic() - max(r.at for r in fake.requests) > 0.5)


async def test_after_a_cancel_no_message_of_the_game_keeps_a_control(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    fake = bots.fake
    guild = fake.add_guild("Cards")
    channel = guild.add_text_channel("rummy")
    ann, bob = fake.add_user("ann"), fake.add_user("bob", dm_open=False)
    async with bots.seat(guild, channel, [ann, bob]) as table:
        await table.threads_off()
        await deal(table)
        session = table.session()
        lobby = fake.messages(channel)[0]
        await eventually(dm_exists(table, ann))
        if session.view(None).current == str(ann.id):
            await play_a_turn(table, ann)
        # Bob's turn: his DMs are closed, he sees his hand privately, with its controls.
        table_message = table.table_message()
        assert table_message is not None
        ix = await fake.click(bob, table_message, f"rummy:hand:{session.game_id}")
        await ix.response()
        await ix.wait_until(lambda i: any(m.custom_ids() for m in i.messages))
        await play_a_turn(table, bob)
        await eventually(dm_has(table, ann, "rummy:do:draw:"))
        # Bob's DMs are closed: he is told in the channel, with a Show my hand button.
        await eventually(lambda: any(m.custom_ids() for m in _notices(table)))
        assert "cancelled" in await table.text(ann, "rummy cancel")

        def bare() -> bool:
            shown = [*fake.messages(channel, ephemeral=True), *bot_messages(fake, [], [ann, bob])]
            return (
                all(not m.custom_ids() for m in shown)
                and "cancelled" in (table.hand_dm(ann) or lobby).content
            )

        await eventually(bare)
        table_message = table.table_message()
        assert table_message is not None
        assert "This game was cancelled." in table_message.content
        assert "(cancelled)" in lobby.content
        dm = table.hand_dm(ann)
        assert dm is not None
        assert "This game was cancelled." in dm.content
        assert dm.attachments == []


async def play_a_turn(table: Table, user: User) -> None:
    """``user`` draws from the stock and discards the first card offered, by commands."""
    assert "drew" in await table.text(user, "draw", source="stock")
    choices = await table.fake.autocomplete(user, table.channel, "discard", focused="card", card="")
    assert "discarded" in await table.text(user, "discard", card=choices[0]["value"])


def _notices(table: Table) -> list[Message]:
    return [
        m
        for m in table.fake.messages(table.channel)
        if "can't send you direct messages" in m.content
    ]


async def test_an_idle_lobby_closes_itself_and_frees_its_channel(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        ann, bob = table.players
        await table.threads_off()
        table.sessions.timing.minute = 0.5
        table.sessions.timing.lobby_idle = 1
        lobby = (await table.answer(ann, "rummy new", variant="classic")).message
        assert lobby is not None
        assert "seat" in await table.text(bob, "rummy join")
        await eventually(lambda: "closed itself after 1 min" in lobby.content)
        assert lobby.custom_ids() == []
        assert table.sessions.get(table.channel.id) is None
        table.sessions.timing.lobby_idle = 30
        again = (await table.answer(ann, "rummy new", variant="classic")).message
        assert again is not None
        assert "Press Join" in again.content


async def test_play_again_where_a_table_is_open_already_says_so_and_changes_nothing(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    fake = bots.fake
    async with bots.table("ann", "bob", "dan") as table:
        ann, bob, dan = table.players
        table.players = [ann, bob]
        await table.threads_off()
        await deal(table, target=1)
        game_id = table.session().game_id
        await play_to_end(table)
        final = await fake.wait_for(lambda m: f"rummy:again:{game_id}" in m.custom_ids())
        assert "Press Join" in (await table.answer(dan, "rummy new", variant="500")).content
        busy = table.session()
        said = await clicked(fake, ann, final, f"rummy:again:{game_id}")
        assert "A game already lives in this channel" in said, said
        assert table.session() is busy
        assert [s.user_id for s in busy.seats] == [dan.id]
        # Someone who did not play cannot play it again either.
        assert "cancelled" in await table.text(dan, "rummy cancel")
        said = await clicked(fake, dan, final, f"rummy:again:{game_id}")
        assert "not playing at this table" in said, said
        assert table.sessions.get(table.channel.id) is None
        # A player can, once the channel is free: the lobby is the command's channel's.
        said = await clicked(fake, ann, final, f"rummy:again:{game_id}")
        assert f"A new table is open in <#{table.channel.id}>" in said, said


async def _finished_without_thread(table: Table) -> tuple[int, Message]:
    """A one-round game played to its end in the table's channel (threads off): its id
    and the result message that carries Play again."""
    await table.threads_off()
    await deal(table, target=1)
    game_id = table.session().game_id
    await play_to_end(table)
    final = await table.fake.wait_for(
        lambda m: f"rummy:again:{game_id}" in m.custom_ids(), PATIENCE
    )
    return game_id, final


async def test_play_again_is_refused_to_whom_the_server_does_not_let_open_tables(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    fake = bots.fake
    async with bots.table("ann", "bob") as table:
        ann, bob = table.players
        game_id, final = await _finished_without_thread(table)
        dealers = table.guild.add_role("dealers")
        table.guild.set_member_roles(ann, [dealers])
        said = await table.text(table.guild.owner, "rummy settings", role=dealers)
        assert f"Only members of <@&{dealers.id}>" in said
        said = await clicked(fake, bob, final, f"rummy:again:{game_id}")
        assert f"only members of <@&{dealers.id}> may open a table" in said, said
        assert table.sessions.get(table.channel.id) is None
        assert not table.sessions.opened_in(table.channel.id)
        said = await clicked(fake, ann, final, f"rummy:again:{game_id}")
        assert f"A new table is open in <#{table.channel.id}>" in said, said
        assert table.session().host_id == ann.id


async def test_a_refused_lobby_post_leaves_nothing_and_play_again_works_again(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    fake = bots.fake
    async with bots.table("ann", "bob") as table:
        ann, _ = table.players
        game_id, final = await _finished_without_thread(table)
        refused: list[RequestRecord] = []

        def lobby_post(record: RequestRecord) -> ApiError | None:
            if refused or record.method != "POST":
                return None
            if record.path.endswith(f"/channels/{table.channel.id}/messages"):
                refused.append(record)
                return ApiError(403, 50013, "Missing Permissions")
            return None

        fake.faults.append(lobby_post)
        said = await clicked(fake, ann, final, f"rummy:again:{game_id}")
        assert "could not post the new table" in said, said
        assert "nothing was opened" in said, said
        assert table.sessions.get(table.channel.id) is None
        assert not table.sessions.opened_in(table.channel.id)
        fake.faults.clear()
        said = await clicked(fake, ann, final, f"rummy:again:{game_id}")
        assert f"A new table is open in <#{table.channel.id}>" in said, said
        assert table.session().host_id == ann.id
        assert [r.getMessage() for r in cog_problems] == [
            f"game {table.session().game_id - 1}: its lobby could not be shown; it was called off"
        ]
        cog_problems.clear()


async def test_the_end_reaches_each_player_with_a_new_message(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    fake = bots.fake
    async with bots.table("ann", "bob") as table:
        await deal(table, target=1)
        posted: list[Message] = []

        def note_posts(event: str, message: Message) -> None:
            # Heard as the fake makes the message: what the bot posted, as against edited.
            if event == "create":
                posted.append(message)

        fake.add_listener(note_posts)
        session = table.session()
        await play_to_end(table)
        assert session.status is SessionStatus.FINISHED
        for user in table.players:
            dm_channel = fake.dms(user)[0].channel.id

            def told(channel: int = dm_channel) -> list[Message]:
                """The DMs posted (not edited into saying it) that tell the game is over."""
                return [
                    m
                    for m in posted
                    if m.channel.id == channel and "The game is over." in m.content
                ]

            await eventually(lambda: bool(told()))
            assert len(told()) == 1, [m.content for m in told()]
