"""The one path every answer and every refusal takes.

A person's mistake (a PlayerError: the engine's or the session's) gets a short ephemeral
answer in their language and changes nothing; anything else is a bug, logged with its
traceback, and the person hears that the game is unchanged, unless their request was
committed already (``after_commit``): then they hear that it was made. Commands and
components both end here, so no callback can leave an interaction unanswered.
"""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Awaitable, Callable, Iterator, Mapping
from typing import Any

import discord

from bot import sessions as s
from bot.i18n import DEFAULT_LOCALE, catalog, locale_of, t
from bot.rummy import CardParseError, NotYourTurn, PlayerError, RulesError
from bot.rummy.errors import message_params
from bot.storage import LeaseLost
from cogs.ui import present, refusal_words
from cogs.ui.options import check_options

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

_SESSION_KEYS: tuple[tuple[type[Exception], str], ...] = (
    (s.NoGameHere, "error.no_game"),
    (s.ChannelBusy, "error.channel_busy"),
    (s.NotAllowed, "error.not_allowed"),
    (s.NotSeated, "error.not_seated"),
    (s.SeatHeld, "error.seat_held"),
    (s.StaleAction, "error.stale"),
    (s.SessionClosed, "error.closed"),
)


class Refused(PlayerError):
    """A refusal only the Discord layer gives (a command used outside a server, a hint out
    of turn); its key is one of the catalogs', and so is its English text."""

    templates = catalog(DEFAULT_LOCALE)


class AnswerFailed(Exception):
    """Answering a committed request failed: the person must hear that it was made
    (``key``), not that nothing changed. The failure is the exception's cause."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


@contextlib.contextmanager
def after_commit(key: str) -> Iterator[None]:
    """Around what a flow does once the session committed the person's request: any failure
    in it becomes an :class:`AnswerFailed` saying ``key``."""
    try:
        yield
    except AnswerFailed:
        raise
    except Exception as error:
        raise AnswerFailed(key) from error


def error_text(error: Exception, loc: str, names: Mapping[str, str] | None = None) -> str:
    """The words for a refusal in the person's language: the session's cases are said by
    their kind, any other refusal's reason is its key translated, inside the kind's frame."""
    if isinstance(error, NotYourTurn):
        current = error.current
        if current is None:
            return t("error.not_seated", loc)
        name = present.name_of(current, names or {})
        return t("error.not_your_turn", loc, player=name)
    for kind, key in _SESSION_KEYS:
        if isinstance(error, kind):
            return t(key, loc)
    if isinstance(error, LeaseLost):
        # Another process took the game's shard over: the write was refused, nothing changed.
        return t("cluster.moved", loc)
    if isinstance(error, RulesError):
        return t("error.rules", loc, reason=reason_text(error, loc))
    if isinstance(error, CardParseError):
        return t("error.cards", loc, reason=reason_text(error, loc))
    if isinstance(error, PlayerError):
        said = t("error.refused", loc, reason=_after(reason_text(error, loc), error, loc))
        more = refusal_words.advice(error, loc)
        return said if more is None else f"{said.rstrip('.')}. {more}"
    return t("error.unexpected", loc)


def _after(reason: str, error: PlayerError, loc: str) -> str:
    """``reason`` as the refusal frame of ``loc`` needs it: a text written in lower case (a
    fragment meant to follow a colon) gets its capital where the frame ends a sentence before
    it (Russian ``Нельзя. Эта кнопка…``); a text that starts with a name or a card keeps it
    as it is."""
    frame = catalog(loc).get("error.refused", "")
    own = catalog(loc).get(error.key) or catalog(loc).get(f"{error.key}.other") or ""
    ends_sentence = frame.split("{reason}", 1)[0].rstrip().endswith((".", "!", "?"))
    if ends_sentence and own[:1].islower() and reason[:1].islower():
        return reason[0].upper() + reason[1:]
    return reason


def reason_text(error: PlayerError, loc: str) -> str:
    """A refusal's own words in ``loc``: its key with its parameters, a refusal inside it
    (why the lobby cannot start) translated as well, and the readings it offers with a high
    ace marked in the reader's words (``A♠(старший)``)."""
    params = message_params(error.params, lambda inner: reason_text(inner, loc))
    text = t(error.key, loc, **refusal_words.shown_params(params, loc))
    english, own = t(present.HIGH_ACE_KEY, DEFAULT_LOCALE), t(present.HIGH_ACE_KEY, loc)
    return text.replace(english, own) if own != english else text


async def send(
    interaction: Interaction,
    content: str | None = None,
    *,
    ephemeral: bool = True,
    file: discord.File | None = None,
    view: discord.ui.View | None = None,
    mentions: discord.AllowedMentions | None = None,
) -> discord.Message | None:
    """Answer ``interaction`` whether or not it was answered (deferred) already.

    Returns the message sent when Discord tells us which it is.
    """
    kwargs: dict[str, Any] = {"ephemeral": ephemeral}
    if file is not None:
        kwargs["file"] = file
    if view is not None:
        kwargs["view"] = view
    kwargs["allowed_mentions"] = mentions or discord.AllowedMentions.none()
    if not interaction.response.is_done():
        callback = await interaction.response.send_message(content, **kwargs)
        resource = callback.resource if callback is not None else None
        return resource if isinstance(resource, discord.Message) else None
    return await interaction.followup.send(content or "\u200b", wait=True, **kwargs)


async def refuse(
    interaction: Interaction, error: Exception, names: Mapping[str, str] | None = None
) -> None:
    """A short ephemeral answer for a refused request; Discord errors while answering are
    logged (the person may have gone, the token may have expired)."""
    await refuse_text(interaction, error_text(error, locale_of(interaction), names))


async def refuse_text(interaction: Interaction, text: str) -> None:
    """Say ``text`` privately; a Discord error while saying it is logged only."""
    try:
        await send(interaction, text, ephemeral=True)
    except discord.HTTPException:
        log.warning(
            "could not tell a person what became of their request (interaction %s)", interaction.id
        )


async def guarded(
    interaction: Interaction,
    work: Callable[[], Awaitable[None]],
    names: Callable[[], Mapping[str, str] | None] | None = None,
    *,
    unexpected: str = "error.unexpected",
) -> None:
    """Run a callback's ``work`` (once its options are in range); every failure ends in
    an answer to the person: a bug's in the words of ``unexpected`` (what stayed as it was:
    the game, or for a settings change the settings)."""
    try:
        check_options(interaction)
        await work()
    except AnswerFailed as failed:
        log.error(
            "interaction %s: committed, then answering failed",
            interaction.id,
            exc_info=failed.__cause__,
        )
        await refuse_text(interaction, t(failed.key, locale_of(interaction)))
    except PlayerError as error:
        await refuse(interaction, error, names() if names else None)
    except discord.HTTPException:
        log.exception("Discord refused a request while answering %s", interaction.id)
    except LeaseLost as error:
        log.warning("interaction %s refused: %s", interaction.id, error)
        await refuse(interaction, error)
    except Exception:
        log.exception("interaction %s failed", interaction.id)
        await refuse_text(interaction, t(unexpected, locale_of(interaction)))


def png(data: bytes, name: str) -> discord.File:
    """A picture as a file to attach."""
    return discord.File(io.BytesIO(data), filename=name)
