"""The two kinds of error the engine raises.

A :class:`PlayerError` is a person's mistake (text that is not a card, a move the rules
refuse, acting out of turn); it carries a message key and the values its text shows, so that
it can be said to that person in their language. An :class:`InvariantError` is a bug in the
engine and must be logged loudly, never shown as if the player had done something wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import ClassVar

from bot.rummy.refusals import REFUSALS, fields


class RummyError(Exception):
    """Base of every error the engine raises on purpose."""


class InvariantError(RummyError):
    """A broken engine invariant: a bug, not a player's mistake."""


class PlayerError(RummyError):
    """A mistake a person made: ``key`` names its text in the message catalogs, ``params``
    holds the values the text shows, and ``str(error)`` is the English text (for logs, and
    for callers that speak no other language).

    The English comes from ``templates``, the texts of the layer the class belongs to (the
    engine's are :data:`~bot.rummy.refusals.REFUSALS`). A key missing there, or parameters
    that are not exactly the ones the text names, is a bug: it raises :class:`InvariantError`
    where the refusal is built, so a refusal written as prose cannot slip through.
    """

    templates: ClassVar[Mapping[str, str]] = REFUSALS
    attributes: ClassVar[frozenset[str]] = frozenset()
    """Parameters the class also keeps as attributes (``token``, ``current``): always given,
    whether or not the text shows them."""

    def __init__(self, key: str, /, **params: object) -> None:
        self.key = key
        self.params: Mapping[str, object] = MappingProxyType(params)
        super().__init__(self.english(key, self.params))

    @classmethod
    def english(cls, key: str, params: Mapping[str, object]) -> str:
        """The English text of ``key`` with ``params``; raises :class:`InvariantError` when
        this class has no such text or the parameters don't fit it."""
        template = cls.templates.get(key)
        if template is None:
            raise InvariantError(f"{cls.__name__} has no text for the key {key!r}")
        named = fields(template)
        missing = named - params.keys()
        unknown = params.keys() - named - cls.attributes
        if missing or unknown:
            raise InvariantError(
                f"{cls.__name__}({key!r}) needs the parameters {sorted(named)},"
                f" was given {sorted(params)}"
            )
        return template.format_map(message_params(params))


def message_params(
    params: Mapping[str, object], refusal: Callable[[PlayerError], str] = str
) -> dict[str, object]:
    """The parameters as a message shows them: a refusal inside a refusal (why a lobby
    cannot start), or a tuple of them (every problem of a ruleset, joined by "; "), by
    ``refusal`` (its English text unless a language is chosen), anything
    else as it is, for the text to format (cards, melds and the wrappers of
    :mod:`bot.rummy.refusals` show themselves as the table does)."""

    def shown(value: object) -> object:
        if isinstance(value, PlayerError):
            return refusal(value)
        if isinstance(value, tuple) and value and all(isinstance(v, PlayerError) for v in value):
            return "; ".join(refusal(v) for v in value)
        return value

    return {name: shown(value) for name, value in params.items()}


class CardParseError(PlayerError, ValueError):
    """Text that does not name a card; ``token`` is the part that was not understood."""

    attributes = frozenset({"token"})

    def __init__(self, key: str, /, *, token: str, **params: object) -> None:
        super().__init__(key, token=token, **params)
        self.token = token


class RulesError(PlayerError, ValueError):
    """Options that cannot be played together, or a player count the rules don't allow."""


class IllegalAction(PlayerError):
    """A well-formed action that the rules refuse in the current state."""


class NotYourTurn(IllegalAction):
    """An action by someone whose turn it is not; ``current`` is whose turn it is, for the
    caller to name in its own words (the engine knows players only by id)."""

    attributes = frozenset({"current"})

    def __init__(self, key: str, /, *, current: str | None = None, **params: object) -> None:
        super().__init__(key, current=current, **params)
        self.current = current


class SnapshotError(RummyError):
    """Saved game data that cannot be loaded: damaged, from another program, or from a
    version this one does not read. Neither a player's mistake nor a bug in the engine."""
