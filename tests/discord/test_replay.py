"""/rummy replay: a finished game of the server posted in the channel as an animated picture;
unknown numbers, games still played, stopped games and another server's games refused in
private, changing nothing."""

from __future__ import annotations

import asyncio
import io
import logging
import re

from PIL import Image, ImageSequence

from bot.rummy import Discard
from tests.discord.fake import Channel, Message, User
from tests.discord.helpers import Bots, Table, bots, cog_problems, deal, play_to_end
from tests.waiting import PATIENCE, eventually

__all__ = ["bots", "cog_problems"]

UPLOAD_CAP = 8 * 1024 * 1024


async def refused(table: Table, user: User, where: Channel, game: int) -> str:
    """A replay that must be refused: a private answer, and nothing posted or committed."""
    before = (len(table.events), len(table.fake.messages(where)))
    ix = await table.fake.slash(user, where, "rummy replay", game=game)
    await ix.response()
    await ix.wait_until(lambda i: any(m.content for m in i.messages))
    assert all(m.ephemeral for m in ix.messages), [m.content for m in ix.messages]
    await asyncio.sleep(0.05)
    assert (len(table.events), len(table.fake.messages(where))) == before
    return ix.messages[-1].content


def _with_gif(messages: list[Message]) -> Message | None:
    return next(
        (m for m in messages if any(a.filename == "replay.gif" for a in m.attachments)), None
    )


async def test_a_finished_game_is_replayed_for_everyone_in_the_channel(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        table.sessions.add_listener(table.record)
        fake = table.fake
        ann, bob = table.players
        await deal(table, target=1)  # the first round ends the game
        game_id = table.session().game_id
        text = await refused(table, ann, table.here, game_id)
        not_over = f"game #{game_id} is not over yet: its replay can be watched once it ends"
        assert text == f"Not allowed: {not_over}"
        await play_to_end(table)

        # The final result says how to watch the game again, where it is shown.
        offer = f"Watch it again: /rummy replay game:{game_id}"
        assert any(offer in m.content for m in fake.messages(table.here))
        assert any(offer in m.content for m in fake.messages(table.channel))  # the lobby message

        choices = await fake.autocomplete(
            bob, table.channel, "rummy replay", focused="game", game=""
        )
        assert [c["value"] for c in choices] == [game_id]
        # The variant and the day in the asker's words: "Classic Rummy", "Dec 4, 2026".
        assert re.match(
            rf"#{game_id} · Classic Rummy · ann, bob · [A-Z][a-z]{{2}} \d{{1,2}}, 20\d\d$",
            choices[0]["name"],
        ), choices[0]["name"]
        typed = await fake.autocomplete(
            bob, table.channel, "rummy replay", focused="game", game="zzz"
        )
        assert typed == []

        ix = await fake.slash(bob, table.channel, "rummy replay", game=game_id)
        first = await ix.response()
        assert first.deferred
        assert first.ephemeral
        await ix.wait_until(lambda i: _with_gif(i.messages) is not None, 60)
        posted = _with_gif(ix.messages)
        assert posted is not None
        assert not posted.ephemeral
        assert posted.content.startswith(
            f"**Replay of game #{game_id}** · Classic Rummy · ann, bob"
        )
        assert "winner: " in posted.content
        await eventually(
            lambda: any(
                m.ephemeral and f"replay of game #{game_id} is posted" in m.content
                for m in ix.messages
            )
        )
        data = posted.attachment("replay.gif").data
        assert len(data) < UPLOAD_CAP
        picture = Image.open(io.BytesIO(data))
        assert picture.format == "GIF"
        durations = [int(frame.info["duration"]) for frame in ImageSequence.Iterator(picture)]

        # One frame per turn at least (the deal, the round's end and the final scores too),
        # the last one held longest.
        found = await table.sessions.services.replays.finished_game(table.guild.id, game_id)
        turns = sum(1 for action in found.game.log if isinstance(action, Discard))
        assert len(durations) >= turns + 2
        assert durations[-1] == max(durations) > durations[1]

        unknown = await refused(table, ann, table.channel, game_id + 1000)
        assert unknown == f"Not allowed: this server has no finished game #{game_id + 1000}"
        assert "no finished game #0" in await refused(table, ann, table.channel, 0)


async def test_a_stopped_game_and_another_servers_game_have_no_replay(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        table.sessions.add_listener(table.record)
        ann = table.players[0]
        await deal(table, target=1)
        stopped = table.session().game_id
        await table.text(ann, "rummy cancel")
        text = await refused(table, ann, table.channel, stopped)
        assert (
            text == f"Not allowed: game #{stopped} was stopped before its end, so it has no replay"
        )

        await deal(table, target=1)
        finished = table.session().game_id
        await play_to_end(table)

    # The same bot's database, serving another server: that game is none of its business.
    fake = table.fake
    other = fake.add_guild("Other")
    channel = other.add_text_channel("cards")
    eve = fake.add_user("eve")
    async with bots.seat(other, channel, [eve]) as elsewhere:
        elsewhere.sessions.add_listener(elsewhere.record)
        text = await refused(elsewhere, eve, channel, finished)
        assert text == f"Not allowed: this server has no finished game #{finished}"
        choices = await fake.autocomplete(eve, channel, "rummy replay", focused="game", game="")
        assert choices == []


async def test_replays_asked_at_once_are_made_once_per_person_and_per_channel(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        fake = table.fake
        ann, bob = table.players
        await deal(table, target=1)
        game_id = table.session().game_id
        await play_to_end(table)
        asks = [
            await fake.slash(ann, table.channel, "rummy replay", game=game_id) for _ in range(4)
        ]
        asks.append(await fake.slash(bob, table.channel, "rummy replay", game=game_id))
        for ix in asks:
            await ix.response(PATIENCE)
            await ix.wait_until(lambda i: any(m.content for m in i.messages), 60)
        await eventually(
            lambda: all(  # every request answered in full: a picture or a refusal
                _with_gif(i.messages) is not None or "Not allowed" in i.messages[-1].content
                for i in asks
            ),
            60,
        )
        posted = [m for m in fake.messages(table.channel) if _with_gif([m]) is not None]
        assert len(posted) == 1, len(posted)
        said = [i.messages[-1].content for i in asks[1:]]
        assert sum("your last replay is still being made" in x for x in said) == 3, said
        assert f"the replay of game #{game_id} is being made for this channel" in said[-1]
