"""Russian and Czech end to end: a server whose preferred language is ``ru`` (then ``cs``),
its players' Discord language the same, open a lobby, play a round to the end by slash
commands and by the hand's buttons and menus, are refused, ask for a hint, help, the rules
and the league; every text the bot sent them is then in their language.

Two checks, because either alone lets English through: chosen answers are compared with the
catalog's text for their key in that language, and a detector reads everything sent (messages
in every version, embeds, button and menu labels, attachment descriptions, thread names,
autocomplete names) for what only another catalog says: a fragment of a sentence, a whole
label, or a word. What is not language passes: the people's and computers' names, card codes
(too short to be words) and command names (answers quote them as typed). A Russian player on
a Czech server reads their own answers, hand and DMs in Russian and the channel in Czech.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.i18n import catalog, number, t, tn
from bot.rummy import full_pack
from bot.sessions import Brains, SessionStatus
from cogs.ui.picture_words import picture_words
from rendering import render_hand, render_table
from tests.discord.fake import FakeDiscord, Interaction, Message, User
from tests.discord.helpers import Bots, Table, bots, cog_problems, on_turn
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]

FIELD = re.compile(r"\{[^{}]*\}")
SHORTEST = 12
"""A fragment shorter than this ("Stock", " · ") is too common to tell a language by."""
LANGUAGES = ("en", "fr", "ru", "cs")


def foreign_fragments(locale: str) -> dict[str, str]:
    """Fragments of the other catalogs' texts that ``locale`` never says: fragment -> key.

    Each text is split on its ``{fields}``; a fragment of at least :data:`SHORTEST`
    characters is kept when the ``locale`` text of the same key lacks it and no text of the
    ``locale`` catalog contains it (a variant's name may be the same in two languages).
    Command and option names are left out: answers quote them as they are typed
    (``/draw source:stock``)."""
    own = catalog(locale)
    everything = "\n".join(own.values())
    found: dict[str, str] = {}
    for other in LANGUAGES:
        if other == locale:
            continue
        for key, text in catalog(other).items():
            if key.startswith("cmd.") and key.endswith(".name"):
                continue
            for piece in FIELD.split(text):
                piece = piece.strip()
                if len(piece) < SHORTEST or piece in own.get(key, "") or piece in everything:
                    continue
                found.setdefault(piece, f"{other}:{key}")
    return found


@dataclass
class Said:
    """One text the bot showed, and whose language it must be in."""

    locale: str
    where: str
    text: str


@dataclass
class Heard:
    """Everything the bot showed, in every version, with the language its reader expects:
    an ephemeral answer its asker's, a DM its recipient's, the rest the server's."""

    fake: FakeDiscord
    server: str
    said: list[Said] = field(default_factory=list)

    def __call__(self, event: str, message: Message) -> None:
        if event == "delete":
            return
        locale, where = self._reader(message)
        for text in _texts(message):
            self.said.append(Said(locale, where, text))

    def _reader(self, message: Message) -> tuple[str, str]:
        recipient = message.channel.recipient
        if recipient is not None:
            return recipient.locale, f"DM to {recipient.name}"
        if message.ephemeral:
            asker = next(i for i in self.fake.interactions if i.id == message.interaction_id)
            return str(asker.payload["locale"]), f"ephemeral to {asker.user.name}"
        return self.server, f"#{message.channel.name}"

    def everything(self) -> Iterator[Said]:
        """The messages heard, then autocomplete names and thread names."""
        yield from self.said
        for ix in self.fake.interactions:
            if ix.first is not None and ix.first.type == 8:
                for choice in ix.first.choices:
                    where = f"autocomplete for {ix.user.name}"
                    yield Said(str(ix.payload["locale"]), where, str(choice["name"]))
        for guild in self.fake.guilds.values():
            for channel in guild.channels.values():
                if channel.is_thread:
                    yield Said(self.server, "thread name", channel.name)


def _texts(message: Message) -> Iterator[str]:
    yield message.text
    for item in message.iter_components():
        for key in ("label", "placeholder"):
            if item.get(key):
                yield str(item[key])
        for option in item.get("options", []):
            yield str(option.get("label", ""))
            if option.get("description"):
                yield str(option["description"])
    for attachment in message.attachments:
        if attachment.description:
            yield attachment.description


def foreign_labels(locale: str) -> dict[str, str]:
    """Whole short texts of the other catalogs (a button's "Start", a menu's "Discard…")
    that ``locale`` never says: text -> key. A label is too short for a fragment, but shown
    whole it is English all the same."""
    own = set(catalog(locale).values())
    found: dict[str, str] = {}
    for other in LANGUAGES:
        if other == locale:
            continue
        for key, text in catalog(other).items():
            if len(text) >= 4 and not FIELD.search(text) and text not in own:
                found.setdefault(text, f"{other}:{key}")
    return found


WORD = re.compile(r"[^\W\d_]{4,}")


def foreign_words(locale: str) -> dict[str, str]:
    """Words of four letters or more that the other catalogs use and ``locale``'s never
    does (lower-cased): word -> key. "Computer" in "Computer 1 (normální)" is too short to
    be a fragment, yet no Czech reader should meet it."""
    own = {w.lower() for text in catalog(locale).values() for w in WORD.findall(text)}
    found: dict[str, str] = {}
    for other in LANGUAGES:
        if other == locale:
            continue
        for key, text in catalog(other).items():
            if key.startswith("cmd.") and key.endswith(".name"):
                continue
            for word in WORD.findall(FIELD.sub(" ", text)):
                if word.lower() not in own:
                    found.setdefault(word.lower(), f"{other}:{key}")
    return found


def strays(heard: Heard, names: Iterable[str] = ()) -> list[str]:
    """Every text in a language its reader does not read, with the fragment that shows it.

    ``names`` (the players', a computer's "Počítač 1" named once in the server's language)
    are names, not language: their words are allowed in any text."""
    allowed = {w.lower() for name in names for w in WORD.findall(name)}
    fragments = {loc: foreign_fragments(loc) for loc in LANGUAGES}
    labels = {loc: foreign_labels(loc) for loc in LANGUAGES}
    words = {loc: foreign_words(loc) for loc in LANGUAGES}
    found = []
    for said in heard.everything():
        for word in WORD.findall(said.text):
            if word.lower() in words[said.locale] and word.lower() not in allowed:
                key = words[said.locale][word.lower()]
                found.append(f"{said.where} ({said.locale}) says {word!r} [{key}]: {said.text!r}")
        if said.text.strip() in labels[said.locale]:
            key = labels[said.locale][said.text.strip()]
            found.append(f"{said.where} ({said.locale}) says {said.text!r} [{key}]")
        for piece, key in fragments[said.locale].items():
            if piece in said.text:
                found.append(f"{said.where} ({said.locale}) says {piece!r} [{key}]: {said.text!r}")
    return found


def hand_dm(table: Table, user: User) -> Message | None:
    """The user's newest hand DM: its "Your hand (n):" line in the user's language."""
    line = t("hand.cards", user.locale, count="\0", cards="").split("\0")[0]
    dms = [m for m in table.fake.dms(user) if line in m.content]
    return dms[-1] if dms else None


def dm_for_turn(table: Table, user: User, turn: int) -> Message | None:
    """The user's hand DM once it offers this turn's buttons."""
    dm = hand_dm(table, user)
    if dm is None or not any(
        c.startswith("rummy:do:") and c.endswith(f":{turn}") for c in dm.custom_ids()
    ):
        return None
    return dm


async def private(table: Table, user: User, command: str, /, **options: Any) -> str:
    """The text of a command's answer only its user sees."""
    ix = await table.fake.slash(user, table._where(command), command, **options)
    await ix.response()
    await ix.wait_until(lambda i: any(m.content for m in i.messages))
    messages = [m for m in ix.messages if m.content]
    assert all(m.ephemeral for m in messages), [m.content for m in messages]
    return messages[-1].content


async def committed(table: Table, seq: int, ix: Interaction) -> None:
    """Wait for a move to commit; say what the bot answered if it never does."""
    try:
        await eventually(lambda: any(e.seq > seq for e in table.events), 30)
    except AssertionError:
        said = [m.content for m in ix.messages]
        raise AssertionError(f"not applied; the bot answered {said}") from None


async def slash_turn(table: Table, user: User) -> None:
    """One turn by slash commands: the stock (or the end of the round), every meld
    autocomplete offers, then its first discard."""
    fake, here, session = table.fake, table.here, table.session()
    turn = session.view(None).turn
    await eventually(lambda: dm_for_turn(table, user, turn) is not None)
    verb: dict[str, Any] = {"source": "stock"} if session.view(None).stock_size else {}
    before = session.seq
    ix = await fake.slash(user, here, "draw" if verb else "endround", **verb)
    await committed(table, before, ix)
    for _ in range(10):
        if not on_turn(session, turn):
            return
        melds = await fake.autocomplete(user, here, "meld", focused="cards", cards="")
        if not melds:
            break
        before = session.seq
        ix = await fake.slash(user, here, "meld", cards=melds[0]["value"])
        await committed(table, before, ix)
    if not on_turn(session, turn):
        return
    choices = await fake.autocomplete(user, here, "discard", focused="card", card="")
    assert choices
    before = session.seq
    ix = await fake.slash(user, here, "discard", card=choices[0]["value"])
    await committed(table, before, ix)


async def button_turn(table: Table, user: User) -> None:
    """One turn from the hand DM: the draw (or end) button, then the first meld the menu
    offers, else its first discard."""
    fake, session = table.fake, table.session()
    turn = session.view(None).turn
    await eventually(lambda: dm_for_turn(table, user, turn) is not None)
    dm = dm_for_turn(table, user, turn)
    assert dm is not None
    press = next(c for c in dm.custom_ids() if c.startswith(("rummy:do:draw:", "rummy:do:end:")))
    before = session.seq
    await committed(table, before, await fake.click(user, dm, press))
    while on_turn(session, turn):
        me = session.player_of(user.id)
        assert me is not None
        hand = session.view(me).hand
        await eventually(lambda: _menu_for(table, user, len(hand)) is not None)  # noqa: B023
        found = _menu_for(table, user, len(hand))
        assert found is not None
        dm, menu = found
        before = session.seq
        ix = await fake.select(user, dm, menu["custom_id"], [menu["options"][0]["value"]])
        await committed(table, before, ix)


def _menu_for(table: Table, user: User, held: int) -> tuple[Message, dict[str, Any]] | None:
    """The hand DM's meld (else discard) menu, once the DM shows ``held`` cards."""
    dm = hand_dm(table, user)
    if dm is None or any(c.startswith("rummy:do:") for c in dm.custom_ids()):
        return None
    if f"({held})" not in dm.content:
        return None
    for prefix in ("rummy:pick:meld:", "rummy:pick:discard:"):
        menu = next((s for s in dm.selects() if s["custom_id"].startswith(prefix)), None)
        if menu is not None:
            return dm, menu
    return None


def shown(table: Table) -> Message:
    found = table.table_message()
    assert found is not None
    return found


def picture(message: Message, name: str) -> bytes:
    return next(a.data for a in message.attachments if a.filename == name)


@pytest.mark.parametrize("locale", ["ru", "cs"])
async def test_a_game_on_a_server_in_its_players_language(
    locale: str, fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    guild = fake.add_guild("Cards", locale=locale)
    channel = guild.add_text_channel("rummy")
    ann = fake.add_user("ann", locale=locale)
    bob = fake.add_user("bob", locale=locale)
    heard = Heard(fake, locale)
    fake.add_listener(heard)
    async with bots.seat(guild, channel, [ann, bob], brains=Brains(delay=0)) as table:
        table.sessions.add_listener(table.record)
        # An option the variant lacks is refused in the player's words.
        wrong = await private(table, ann, "rummy new", variant="classic", jokers=True)
        assert wrong.startswith(t("error.rules", locale, reason="")), wrong
        # So is a value out of its range, sent by a client that does not check it.
        fake.clients_check_ranges = False
        wrong = await private(table, ann, "rummy new", variant="classic", target=0)
        fake.clients_check_ranges = True
        assert wrong == t(
            "error.refused",
            locale,
            reason=t("refusal.option.target", locale, low=1, high=100000),
        )
        opened = await table.answer(ann, "rummy new", variant="classic", target=1)
        lobby = opened.message
        assert lobby is not None
        assert t("lobby.title", locale, variant=t("variant.classic", locale)) in lobby.content
        # Not the host: refused.
        assert await private(table, bob, "rummy start") == t("error.not_allowed", locale)
        join = await fake.click(bob, lobby, lobby.button(t("button.join", locale))["custom_id"])
        await join.response()
        await eventually(lambda: "bob" in lobby.content)
        assert await table.text(ann, "rummy start") == t("lobby.started", locale)
        session = table.session()
        # ann's hand picture is drawn in her language.
        me = session.player_of(ann.id)
        assert me is not None
        await eventually(lambda: hand_dm(table, ann) is not None)
        dm = hand_dm(table, ann)
        assert dm is not None
        view = session.view(me)
        assert picture(dm, "hand.png") == render_hand(view, words=picture_words(locale))
        assert picture(dm, "hand.png") != render_hand(view, words=picture_words("en"))

        users = {session.player_of(u.id): u for u in (ann, bob)}
        current = users[session.view(None).current]
        other = bob if current is ann else ann
        refused = await private(table, other, "draw", source="stock")
        assert refused == t("error.not_your_turn", locale, player=current.name)
        hint = await private(table, current, "hint")
        assert hint.splitlines()[0] == f"**{t('hint.title', locale)}**", hint
        assert t("hint.next", locale, move="") in hint, hint
        refused = await private(table, current, "discard", card="Ж♠")
        assert refused.startswith(t("error.cards", locale, reason="")), refused
        mine = session.player_of(current.id)
        assert mine is not None
        count = len(session.view(mine).hand)
        assert (await private(table, current, "hand")).startswith(
            t("hand.cards", locale, count=count, cards="")
        )
        # A card not held, once the player has drawn.
        before = session.seq
        ix = await fake.slash(current, table.here, "draw", source="stock")
        await committed(table, before, ix)
        faces = {c.face for c in session.view(mine).hand}
        missing = next(c for c in full_pack() if c.face not in faces)
        refused = await private(table, current, "discard", card=str(missing))
        assert refused == t(
            "error.refused", locale, reason=t("refusal.card.not_held", locale, card=str(missing))
        ), refused
        choices = await fake.autocomplete(current, table.here, "discard", focused="card", card="")
        before = session.seq
        ix = await fake.slash(current, table.here, "discard", card=choices[0]["value"])
        await committed(table, before, ix)

        while session.status is SessionStatus.ACTIVE:
            player = users.get(session.view(None).current)
            assert player is not None
            if player is ann:
                await slash_turn(table, ann)
            else:
                await button_turn(table, bob)
        await eventually(lambda: table.here.archived)

        # After the game, in the channel: help, the rules, the league.
        help_text = await private(table, ann, "rummy help")
        for name in ("classic", "parlett", "500"):
            assert t(f"variant.{name}", locale) in help_text
        help_text = await private(table, bob, "rummy help", variant="500")
        assert t("help.title", locale, variant=t("variant.500", locale)) in help_text
        rules = await private(table, bob, "rummy rules")
        assert t("rules.overview.title", locale) in rules
        standings = await table.text(ann, "league table")
        assert standings.splitlines()[0] == (
            f"**{t('league.title', locale, season=1, page=1, pages=1)}**"
        )
        assert standings.splitlines()[-1] == t("league.rating_note", locale)
        card = await table.sessions.services.league.player_card(guild.id, bob.id)
        assert card is not None
        assert await private(table, bob, "league player") == "\n".join(
            [
                t(
                    "league.player",
                    locale,
                    player="bob",
                    rank=card.rank,
                    games=tn("unit.games", card.games, locale),
                    wins=tn("unit.wins", card.wins, locale),
                    rounds=tn("unit.rounds_won", card.rounds_won, locale),
                    rating=number(card.rating, locale, decimals=1),
                    place=number(card.average_place, locale, decimals=2),
                ),
                t("league.rating_note", locale),
            ]
        )
    assert_in_their_language(heard, session.names.values())


def assert_in_their_language(heard: Heard, names: Iterable[str]) -> None:
    """Nothing the bot showed carries a sentence, a label or a word of a language its reader
    does not read, ``names`` aside; and the detector does see one: an English refusal is a
    stray for every reader here."""
    problems = strays(heard, names)
    assert not problems, "\n".join(problems)
    for locale in {said.locale for said in heard.said}:
        english = Said(locale, "probe", t("error.not_allowed", "en"))
        assert strays(Heard(heard.fake, locale, [english])), "the detector is blind"


async def test_a_russian_player_on_a_czech_server_reads_their_own_answers_in_russian(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    guild = fake.add_guild("Karty", locale="cs")
    channel = guild.add_text_channel("rummy")
    ann = fake.add_user("ann", locale="ru")
    bob = fake.add_user("bob", locale="cs")
    heard = Heard(fake, "cs")
    fake.add_listener(heard)
    async with bots.seat(guild, channel, [ann, bob], brains=Brains(delay=0)) as table:
        table.sessions.add_listener(table.record)
        opened = await table.answer(ann, "rummy new", variant="parlett")
        lobby = opened.message
        assert lobby is not None
        assert not lobby.ephemeral
        assert t("lobby.title", "cs", variant=t("variant.parlett", "cs")) in lobby.content
        assert await table.text(bob, "rummy join") == t("lobby.you_joined", "cs")
        # ann seats a computer from the lobby, whose buttons are the channel's: Czech; so is
        # the computer's name, which everyone reads.
        add = lobby.button(t("button.addbot", "cs"))["custom_id"]
        await (await fake.click(ann, lobby, add)).response()
        computer = t("seat.computer", "cs", number=1)
        seat = t("lobby.computer_seat", "cs", name=computer, level=t("level.normal", "cs"))
        await eventually(lambda: seat in lobby.content)
        assert await table.text(ann, "rummy start") == t("lobby.started", "ru")
        session = table.session()
        names = dict(session.names)
        await eventually(lambda: hand_dm(table, ann) is not None)
        await eventually(lambda: hand_dm(table, bob) is not None)
        await eventually(lambda: table.table_message() is not None)
        assert computer in names.values()
        users = {session.player_of(u.id): u for u in (ann, bob)}
        await eventually(lambda: session.view(None).current in users)
        current = users[session.view(None).current]
        for user, locale in ((ann, "ru"), (bob, "cs")):
            me = session.player_of(user.id)
            assert me is not None
            view = session.view(me)
            lines = t("hand.cards", locale, count=len(view.hand), cards="")
            drawn = render_hand(view, words=picture_words(locale))
            assert drawn != render_hand(view, words=picture_words("en"))

            def hand_shown(user: User = user, lines: str = lines, drawn: bytes = drawn) -> bool:
                dm = hand_dm(table, user)
                return dm is not None and lines in dm.content and picture(dm, "hand.png") == drawn

            await eventually(hand_shown)
        # The table, once it shows the turn: in the channel's words.
        everyone = session.view(None)
        czech, russian = (
            render_table(everyone, names=names, words=picture_words(loc)) for loc in ("cs", "ru")
        )
        await eventually(lambda: picture(shown(table), "table.png") == czech)
        assert czech != russian
        # Refusals and the hint, each in its asker's language.
        refused = await private(table, ann if current is bob else bob, "draw", source="stock")
        other_locale = "ru" if current is bob else "cs"
        assert refused == t("error.not_your_turn", other_locale, player=current.name)
        mine = "ru" if current is ann else "cs"
        hint = await private(table, current, "hint")
        assert hint.splitlines()[0] == f"**{t('hint.title', mine)}**", hint
        refused = await private(table, ann, "discard", card="Ж♠")
        assert refused.startswith(t("error.cards", "ru", reason="")), refused
        # Someone else's league card is the channel's: Czech, even asked by ann.
        ix = await fake.slash(ann, table.here, "league player", user=bob)
        await ix.response()
        await ix.wait_until(lambda i: any(m.content for m in i.messages))
        (about,) = [m for m in ix.messages if m.content]
        assert not about.ephemeral
        assert about.content == t("league.no_player", "cs", player="bob")
        # ann's moves are told to the channel in Czech, her own answers in Russian.
        while (player := users.get(session.view(None).current)) is not ann:
            if player is bob:
                await button_turn(table, bob)
            else:
                turn = session.view(None).turn
                await eventually(lambda: not on_turn(session, turn))  # noqa: B023
        await slash_turn(table, ann)
        # The table's "Show my hand" is labelled in Czech; what it shows ann is Russian.
        table_message = shown(table)
        show = table_message.button(t("button.show_hand", "cs"))["custom_id"]
        press = await fake.click(ann, table_message, show)
        await press.response()
        await press.wait_until(lambda i: any(m.content for m in i.messages))
        me = session.player_of(ann.id)
        assert me is not None
        count = len(session.view(me).hand)
        (hand,) = [m for m in press.messages if m.content]
        assert hand.ephemeral
        assert t("hand.cards", "ru", count=count, cards="") in hand.content
        await private(table, ann, "rummy preferences")
        said = await table.text(ann, "league history")
        assert said == t("league.no_history", "cs")
        # The host calls the game off: told in Russian, the channel in Czech.
        await private(table, ann, "rummy cancel")
        await eventually(lambda: session.status is not SessionStatus.ACTIVE)
    assert_in_their_language(heard, names.values())
