"""The move commands (/draw, /meld, /layoff, /swap, /discard, /endround, /hand) and their
autocomplete, built from the player's legal actions.

An autocomplete choice's value is text that the command reads back as exactly the action
offered; anything else the engine accepts is accepted when typed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from discord import app_commands
from discord.ext import commands

from bot import sessions as s
from bot.app import RummyBot
from bot.i18n import locale_of
from bot.rummy import (
    Action,
    Card,
    Discard,
    DrawStock,
    EndRound,
    LayOff,
    Meld,
    PlayerError,
    SwapJoker,
    TakeDiscard,
    layoff_readings,
    readings,
    variants,
)
from cogs.flows import clicks, moves, resolve
from cogs.ui import ids, positions, present, rule_words, typed
from cogs.ui.client import Interaction
from cogs.ui.house_options import for_variants
from cogs.ui.items import DYNAMIC_ITEMS
from cogs.ui.seat_items import SeatButton

log = logging.getLogger(__name__)

MAX_CHOICES = 25


def _legal(interaction: Interaction) -> tuple[s.Session, str, list[Action]] | None:
    """The asker's session, player id and legal actions; None when they have none."""
    session = resolve.session_here(interaction)
    if session is None or session.status is not s.SessionStatus.ACTIVE:
        return None
    player = session.player_of(interaction.user.id)
    if player is None:
        return None
    return session, player, list(session.legal_actions(player))


def _sort_of(interaction: Interaction) -> str:
    """The asker's card order as last read: an autocomplete cannot wait for storage, and
    whatever showed them their numbered hand has read it."""
    return resolve.services(interaction).personal_settings.known(interaction.user.id).sort


def _faces(text: str, hand: Sequence[Card], sort_by: str) -> set[tuple[int, Any]] | None:
    """The faces typed so far (a number: the card at that place of ``hand`` as shown in
    ``sort_by`` order); None when the text is not (yet) cards."""
    try:
        cards = typed.cards_of(positions.by_position(typed.clean(text), hand, sort_by))
    except PlayerError:
        return None
    return {c.face for c in cards}


def _matches(
    cards: Sequence[Card],
    label: str,
    current: str,
    hand: Sequence[Card] = (),
    sort_by: str = "suit",
) -> bool:
    if not current.strip():
        return True
    faces = _faces(current, hand, sort_by)
    if faces is not None:
        have = {c.face for c in cards}
        return faces <= have
    return current.strip().lower() in label.lower()


def _choice(name: str, value: str) -> app_commands.Choice[str] | None:
    if not value or len(value) > 100:
        return None
    return app_commands.Choice(name=name[:100], value=value)


def _play_value(action: Meld | LayOff) -> str:
    """The cards part of the engine's text form: it reads back as exactly this play (the
    copies, and what each joker stands for when that matters)."""
    text = str(action)
    if isinstance(action, Meld):
        return text.removeprefix("meld ")
    return text.removeprefix(f"layoff {action.meld_id} ")


def _safe(
    build: Callable[[Interaction, str], list[app_commands.Choice[Any]]],
) -> Callable[[Interaction, str], Any]:
    async def complete(interaction: Interaction, current: str) -> list[app_commands.Choice[Any]]:
        try:
            return build(interaction, current)[:MAX_CHOICES]
        except Exception:
            log.exception("autocomplete failed")
            return []

    return complete


def meld_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """/meld ``cards``: the new melds the hand allows that contain what was typed."""
    return _play_choices(interaction, current, Meld, None)


def layoff_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """/layoff ``cards``: the lay-offs the hand allows, on the chosen meld when one is."""
    wanted = getattr(interaction.namespace, "meld", None)
    return _play_choices(interaction, current, LayOff, wanted if isinstance(wanted, int) else None)


def _play_choices(
    interaction: Interaction, current: str, kind: type[Meld | LayOff], meld_id: int | None
) -> list[app_commands.Choice[str]]:
    found = _legal(interaction)
    if found is None:
        return []
    session, player, legal = found
    view = session.view(None)
    hand, sort = session.view(player).hand, _sort_of(interaction)
    out: list[app_commands.Choice[str]] = []
    for action in legal:
        if not isinstance(action, kind):
            continue
        if meld_id is not None and isinstance(action, LayOff) and action.meld_id != meld_id:
            continue
        label = present.action_label(action, view, locale_of(interaction))
        if not _matches(action.cards, label, current, hand, sort):
            continue
        choice = _choice(label, _play_value(action))
        if choice is not None and choice not in out:
            out.append(choice)
    return out


def meld_id_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[int]]:
    """/layoff and /swap ``meld``: the melds the typed cards can go on."""
    found = _legal(interaction)
    if found is None:
        return []
    session, player, legal = found
    view = session.view(None)
    hand, sort = session.view(player).hand, _sort_of(interaction)
    loc = locale_of(interaction)
    command = interaction.command.name if interaction.command is not None else ""
    typed_cards = str(
        getattr(interaction.namespace, "cards", None)
        or getattr(interaction.namespace, "card", None)
        or ""
    )
    ids: list[int] = []
    for action in legal:
        if command == "swap" and isinstance(action, SwapJoker):
            cards: Sequence[Card] = (action.card,)
        elif command != "swap" and isinstance(action, LayOff):
            cards = action.cards
        else:
            continue
        if typed_cards and not _matches(cards, "", typed_cards, hand, sort):
            continue
        if action.meld_id not in ids:
            ids.append(action.meld_id)
    out: list[app_commands.Choice[int]] = []
    for meld in view.melds:
        if meld.id in ids and (not current or current.strip().lstrip("#") in str(meld.id)):
            out.append(
                app_commands.Choice(
                    name=present.meld_line(meld, session.names, loc, markdown=False)[:100],
                    value=meld.id,
                )
            )
    return out


def reading_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The readings of the typed cards, when there is more than one."""
    session = resolve.session_here(interaction)
    if session is None or session.status is not s.SessionStatus.ACTIVE:
        return []
    text = str(getattr(interaction.namespace, "cards", None) or "")
    try:
        cards = typed.cards_of(text)
    except PlayerError:
        return []
    command = interaction.command.name if interaction.command is not None else ""
    if command == "layoff":
        meld_id = getattr(interaction.namespace, "meld", None)
        meld = next((m for m in session.view(None).melds if m.id == meld_id), None)
        options = layoff_readings(meld, cards, session.ruleset) if meld is not None else []
    else:
        options = readings(cards, session.ruleset)
    if len(options) < 2:
        return []
    out: list[app_commands.Choice[str]] = []
    for number, option in enumerate(options, start=1):
        name = f"{number}: {present.reading_text(option, locale_of(interaction))}"
        choice = _choice(name, str(number))
        if choice is not None:
            out.append(app_commands.Choice(name=name[:100], value=str(number)))
    return out


def discard_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = _legal(interaction)
    if found is None:
        return []
    session, player, legal = found
    hand, sort = session.view(player).hand, _sort_of(interaction)
    out: list[app_commands.Choice[str]] = []
    for action in legal:
        if isinstance(action, Discard):
            text = present.card_text(action.card)
            if _matches((action.card,), text, current, hand, sort):
                out.append(app_commands.Choice(name=text, value=str(action.card)))
    return out


def swap_card_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = _legal(interaction)
    if found is None:
        return []
    session, player, legal = found
    hand, sort = session.view(player).hand, _sort_of(interaction)
    wanted = getattr(interaction.namespace, "meld", None)
    out: list[app_commands.Choice[str]] = []
    for action in legal:
        if isinstance(action, SwapJoker) and (
            not isinstance(wanted, int) or wanted == action.meld_id
        ):
            text = present.card_text(action.card)
            name = f"{text} ⇄ JK #{action.meld_id}"
            if _matches((action.card,), name, current, hand, sort):
                choice = app_commands.Choice(name=name, value=str(action.card))
                if choice not in out:
                    out.append(choice)
    return out


def depth_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[int]]:
    found = _legal(interaction)
    if found is None:
        return []
    view = found[0].view(None)
    loc = locale_of(interaction)
    return [
        app_commands.Choice(name=rule_words.deep_take_label(a, view, loc), value=a.depth)
        for a in found[2]
        if isinstance(a, TakeDiscard)
    ]


DEEP_TAKERS = [v for v in variants.VARIANTS.values() if v.rules["deep_discard"]]
DEPTH = for_variants("how many cards to take from the discard pile", DEEP_TAKERS)
"""The depth option's description, naming the variants that take deeper than the top card."""


class Play(commands.Cog):
    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="draw", description="Draw from the stock or take from the discard pile"
    )
    @app_commands.describe(
        source="Where to draw from",
        depth=DEPTH,
    )
    @app_commands.choices(
        source=[
            app_commands.Choice(name="stock", value="stock"),
            app_commands.Choice(name="discard", value="discard"),
        ]
    )
    @app_commands.autocomplete(depth=_safe(depth_choices))
    @app_commands.guild_only()
    async def draw(
        self,
        interaction: Interaction,
        source: app_commands.Choice[str],
        depth: app_commands.Range[int, 1, 200] | None = None,
    ) -> None:
        def build(session: s.Session, player: str) -> Action:
            if source.value == "stock":
                return DrawStock()
            return TakeDiscard(depth or 1)

        await moves.move_command(interaction, build)

    @app_commands.command(name="meld", description="Put a new meld on the table")
    @app_commands.describe(
        cards="The cards, e.g. 7h 7d 7s or 5h 6h JK=7h, or their numbers in your hand",
        reading="Which reading, when the cards can be read more than one way",
    )
    @app_commands.autocomplete(cards=_safe(meld_choices), reading=_safe(reading_choices))
    @app_commands.guild_only()
    async def meld(
        self,
        interaction: Interaction,
        cards: app_commands.Range[str, 1, 300],
        reading: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        sort = (await resolve.look_of(interaction)).sort

        def build(session: s.Session, player: str) -> Action:
            typed_cards = positions.as_typed(cards, session, player, sort)
            return typed.meld_action(typed_cards, typed.reading_number(reading))

        await moves.move_command(interaction, build)

    @app_commands.command(name="layoff", description="Add cards to a meld on the table")
    @app_commands.describe(
        cards="The cards to add, e.g. 8h or JK=9h, or their numbers in your hand",
        meld="The meld's number (shown as #N on the table)",
        reading="Which reading, when the cards can be read more than one way",
    )
    @app_commands.autocomplete(
        cards=_safe(layoff_choices), meld=_safe(meld_id_choices), reading=_safe(reading_choices)
    )
    @app_commands.guild_only()
    async def layoff(
        self,
        interaction: Interaction,
        cards: app_commands.Range[str, 1, 300],
        meld: app_commands.Range[int, 1, 10000],
        reading: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        sort = (await resolve.look_of(interaction)).sort

        def build(session: s.Session, player: str) -> Action:
            typed_cards = positions.as_typed(cards, session, player, sort)
            return typed.layoff_action(typed_cards, meld, typed.reading_number(reading))

        await moves.move_command(interaction, build)

    @app_commands.command(
        name="swap", description="Swap a joker out of a meld for the card it stands for"
    )
    @app_commands.describe(
        meld="The meld's number (shown as #N on the table)",
        card="Your natural card, e.g. 7h, or its number in your hand",
    )
    @app_commands.autocomplete(meld=_safe(meld_id_choices), card=_safe(swap_card_choices))
    @app_commands.guild_only()
    async def swap(
        self,
        interaction: Interaction,
        meld: app_commands.Range[int, 1, 10000],
        card: app_commands.Range[str, 1, 40],
    ) -> None:
        sort = (await resolve.look_of(interaction)).sort

        def build(session: s.Session, player: str) -> Action:
            return SwapJoker(meld, typed.one_card(positions.as_typed(card, session, player, sort)))

        await moves.move_command(interaction, build)

    @app_commands.command(name="discard", description="Discard a card and end your turn")
    @app_commands.describe(card="The card, e.g. 7h or Q♠, or its number in your hand")
    @app_commands.autocomplete(card=_safe(discard_choices))
    @app_commands.guild_only()
    async def discard(self, interaction: Interaction, card: app_commands.Range[str, 1, 40]) -> None:
        sort = (await resolve.look_of(interaction)).sort

        def build(session: s.Session, player: str) -> Action:
            return Discard(typed.one_card(positions.as_typed(card, session, player, sort)))

        await moves.move_command(interaction, build)

    @app_commands.command(
        name="endround", description="End the round instead of drawing, when the stock is empty"
    )
    @app_commands.guild_only()
    async def endround(self, interaction: Interaction) -> None:
        await moves.move_command(interaction, lambda session, player: EndRound())

    @app_commands.command(
        name="hint",
        description="Best melds and a suggested discard for your turn (only you see it)",
    )
    @app_commands.guild_only()
    async def hint(self, interaction: Interaction) -> None:
        await moves.hint_command(interaction)

    @app_commands.command(name="hand", description="Show your hand (only you see it)")
    @app_commands.guild_only()
    async def hand(self, interaction: Interaction) -> None:
        await moves.hand_command(interaction)


async def setup(bot: RummyBot) -> None:
    clicks.bind_clicks()
    bot.intake.game_of = ids.live_game_of  # which clicks name a game (for their forwarding)
    bot.add_dynamic_items(*DYNAMIC_ITEMS, SeatButton)
    await bot.add_cog(Play(bot))
