"""/hint through Discord: a private answer whose advice is a sentence with its verb and its
cards, that the asker can follow with the commands as written."""

from __future__ import annotations

import logging

from bot.rummy import preset
from tests.discord.helpers import Bots, bots, cog_problems

__all__ = ["bots", "cog_problems"]


async def test_a_hint_is_a_private_sentence_the_player_can_follow(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        ann, bob = table.players
        # A fixed deal (seed 0): ann holds two melds that each need one of her two jokers.
        await table.sessions.create_lobby(
            guild_id=table.guild.id,
            channel_id=table.channel.id,
            host_id=ann.id,
            host_name=ann.name,
            ruleset=preset("parlett"),
            seed=0,
        )
        assert "seat" in await table.text(bob, "rummy join")
        assert "dealt" in await table.text(ann, "rummy start")
        session = table.session()
        assert session.view(None).current == str(ann.id)

        hint = await table.answer(ann, "hint")
        assert hint.ephemeral
        assert hint.content.splitlines()[1:] == [
            "Best melds: 10♣ 10♦ JK=10 · K♦ K♠ JK=K",
            "Left in hand: A♣ A♥ 6♥ 3♠ (11 points)",
            "Suggested move: Draw from the stock.",
            "Then discard 6♥, unless the card you draw changes the plan.",
        ]
        french = await table.answer(ann, "hint", locale="fr")
        assert french.ephemeral
        assert "Coup conseillé : Pioche dans le talon." in french.content

        assert "drew" in await table.text(ann, "draw", source="stock")
        hint = await table.answer(ann, "hint")
        assert hint.ephemeral
        assert (
            "Suggested move: Discard 6♥ and hold 10♣ 10♦ JK=10 · K♦ K♠ JK=K back for now, "
            "to go out in one go: a meld on the table gives the others a place to lay off."
        ) in hint.content
        # The advice is followed as written.
        assert "discarded 6♥" in await table.text(ann, "discard", card="6♥")
        assert session.view(None).current == str(bob.id)
