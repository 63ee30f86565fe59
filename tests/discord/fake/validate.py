"""Discord's limits on what a bot sends, answered with Discord's own error shapes.

Each check collects `(path, code, message)` problems; `ApiError.form` turns them into the
nested `{"errors": {...}}` body of a 50035 "Invalid Form Body", which discord.py flattens
into the text of its `HTTPException`. Rejecting here what Discord rejects is what makes the
fake catch real bugs (a 26-option select, a 2,001-character table).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

JSON = dict[str, Any]
Problem = tuple[tuple[str | int, ...], str, str]

CONTENT_MAX = 2000
EMBEDS_MAX = 10
ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
SELECT_OPTIONS_MAX = 25
CUSTOM_ID_MAX = 100
LABEL_MAX = 80
OPTION_TEXT_MAX = 100
PLACEHOLDER_MAX = 150
CHOICES_MAX = 25
CHOICE_NAME_MAX = 100
SELECT_TYPES = (3, 5, 6, 7, 8)
IS_COMPONENTS_V2 = 1 << 15

VALID_LOCALES = frozenset(locale.value for locale in discord.Locale)
# Discord's rule for command and option names (lower case where the script has case).
NAME_RE = re.compile(r"^[-_'\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")


class ApiError(Exception):
    """An error answer: HTTP status plus Discord's JSON body."""

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> JSON:
        body: JSON = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body

    @classmethod
    def form(cls, problems: Sequence[Problem]) -> ApiError:
        errors: JSON = {}
        for path, code, message in problems:
            node = errors
            for key in path:
                node = node.setdefault(str(key), {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return cls(400, 50035, "Invalid Form Body", errors)


def _max_len(path: tuple[str | int, ...], value: Any, limit: int, out: list[Problem]) -> None:
    if isinstance(value, str) and len(value) > limit:
        out.append((path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."))


def _between(
    path: tuple[str | int, ...], value: Any, low: int, high: int, out: list[Problem]
) -> None:
    if not isinstance(value, str) or not low <= len(value) <= high:
        out.append((path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length."))


def check_message(payload: JSON) -> list[Problem]:
    """Problems with a message body (create, edit, interaction response or follow-up)."""
    out: list[Problem] = []
    content = payload.get("content")
    if content is not None:
        if not isinstance(content, str):
            out.append((("content",), "STRING_TYPE_CONVERT", "Could not interpret as string."))
        else:
            _max_len(("content",), content, CONTENT_MAX, out)
    embeds = payload.get("embeds")
    if embeds is not None:
        out.extend(check_embeds(embeds))
    components = payload.get("components")
    flags = int(payload.get("flags") or 0)
    if components is not None:
        if flags & IS_COMPONENTS_V2:
            out.extend(_check_v2(components))
        else:
            out.extend(check_components(components))
    return out


def is_empty(payload: JSON, files: int, attachments_kept: int = 0) -> bool:
    return not (
        payload.get("content")
        or payload.get("embeds")
        or payload.get("components")
        or payload.get("sticker_ids")
        or payload.get("poll")
        or files
        or attachments_kept
    )


THREAD_NAME_MAX = 100
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
SLOWMODE_MAX = 21600


def check_thread(payload: JSON, *, creating: bool) -> list[Problem]:
    """Problems with Start Thread (``creating``) or Modify Channel on a thread."""
    out: list[Problem] = []
    if creating or "name" in payload:
        _between(("name",), payload.get("name"), 1, THREAD_NAME_MAX, out)
    duration = payload.get("auto_archive_duration")
    if duration is not None and duration not in ARCHIVE_DURATIONS:
        out.append(
            (
                ("auto_archive_duration",),
                "BASE_TYPE_CHOICES",
                f"Value must be one of {ARCHIVE_DURATIONS}.",
            )
        )
    slowmode = payload.get("rate_limit_per_user")
    if slowmode is not None and not (isinstance(slowmode, int) and 0 <= slowmode <= SLOWMODE_MAX):
        out.append(
            (
                ("rate_limit_per_user",),
                "NUMBER_TYPE_MAX",
                f"Must be between 0 and {SLOWMODE_MAX}.",
            )
        )
    for key in ("archived", "locked"):
        if key in payload and not isinstance(payload[key], bool):
            out.append(((key,), "BASE_TYPE_BOOLEAN", "Must be either true or false."))
    return out


def check_embeds(embeds: Any) -> list[Problem]:
    out: list[Problem] = []
    if not isinstance(embeds, list):
        return [(("embeds",), "LIST_TYPE_CONVERT", "Must be an array.")]
    if len(embeds) > EMBEDS_MAX:
        out.append(
            (("embeds",), "BASE_TYPE_MAX_LENGTH", f"Must be {EMBEDS_MAX} or fewer in length.")
        )
    total = 0
    for i, embed in enumerate(embeds):
        p: tuple[str | int, ...] = ("embeds", i)
        for key, limit in (("title", 256), ("description", 4096)):
            _max_len((*p, key), embed.get(key), limit, out)
            total += len(embed.get(key) or "")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            out.append(((*p, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
        for j, f in enumerate(fields):
            _between((*p, "fields", j, "name"), f.get("name"), 1, 256, out)
            _between((*p, "fields", j, "value"), f.get("value"), 1, 1024, out)
            total += len(f.get("name") or "") + len(f.get("value") or "")
        footer = embed.get("footer") or {}
        _max_len((*p, "footer", "text"), footer.get("text"), 2048, out)
        total += len(footer.get("text") or "")
        author = embed.get("author") or {}
        _max_len((*p, "author", "name"), author.get("name"), 256, out)
        total += len(author.get("name") or "")
    if total > 6000:
        out.append(
            (("embeds",), "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
        )
    return out


def check_components(rows: Any) -> list[Problem]:
    """Classic components: up to 5 action rows; 5 buttons or one select per row."""
    out: list[Problem] = []
    if not isinstance(rows, list):
        return [(("components",), "LIST_TYPE_CONVERT", "Must be an array.")]
    if len(rows) > ROWS_MAX:
        out.append(
            (("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {ROWS_MAX} or fewer in length.")
        )
    seen: set[str] = set()
    for i, row in enumerate(rows):
        p: tuple[str | int, ...] = ("components", i)
        if row.get("type") != 1:
            out.append(
                (
                    (*p, "type"),
                    "UNION_TYPE_CHOICES",
                    'Value of field "type" must be one of (1,).',
                )
            )
            continue
        items = row.get("components") or []
        if not 1 <= len(items) <= ROW_BUTTONS_MAX:
            out.append(
                (
                    (*p, "components"),
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between 1 and {ROW_BUTTONS_MAX} in length.",
                )
            )
        selects = [c for c in items if c.get("type") in SELECT_TYPES]
        if selects and len(items) > 1:
            out.append(
                (
                    (*p, "components"),
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width",
                )
            )
        for j, item in enumerate(items):
            out.extend(_check_item((*p, "components", j), item, seen))
    return out


def _check_item(p: tuple[str | int, ...], item: JSON, seen: set[str]) -> list[Problem]:
    out: list[Problem] = []
    kind = item.get("type")
    custom_id = item.get("custom_id")
    if kind == 2:
        style = item.get("style")
        if style == 5:
            if not item.get("url"):
                out.append(((*p, "url"), "BASE_TYPE_REQUIRED", "This field is required"))
            if custom_id is not None:
                out.append(
                    (
                        (*p, "custom_id"),
                        "BUTTON_COMPONENT_LINK_HAS_CUSTOM_ID",
                        "A link button cannot have a custom id",
                    )
                )
        elif style != 6 and custom_id is None:
            out.append(((*p, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required"))
        if item.get("label") is not None:
            _max_len((*p, "label"), item["label"], LABEL_MAX, out)
        elif not item.get("emoji") and style != 6:
            out.append(((*p, "label"), "BASE_TYPE_REQUIRED", "A button needs a label or an emoji"))
    elif kind in SELECT_TYPES:
        _max_len((*p, "placeholder"), item.get("placeholder"), PLACEHOLDER_MAX, out)
        low = item.get("min_values", 1)
        high = item.get("max_values", 1)
        if not 0 <= low <= 25:
            out.append(
                ((*p, "min_values"), "NUMBER_TYPE_MAX", "int value should be <= 25 and >= 0.")
            )
        if not 1 <= high <= 25:
            out.append(
                ((*p, "max_values"), "NUMBER_TYPE_MAX", "int value should be <= 25 and >= 1.")
            )
        if kind == 3:
            options = item.get("options") or []
            if not 1 <= len(options) <= SELECT_OPTIONS_MAX:
                out.append(
                    (
                        (*p, "options"),
                        "BASE_TYPE_BAD_LENGTH",
                        f"Must be between 1 and {SELECT_OPTIONS_MAX} in length.",
                    )
                )
            values: set[str] = set()
            for k, option in enumerate(options):
                q = (*p, "options", k)
                _between((*q, "label"), option.get("label"), 1, OPTION_TEXT_MAX, out)
                _between((*q, "value"), option.get("value"), 1, OPTION_TEXT_MAX, out)
                _max_len((*q, "description"), option.get("description"), OPTION_TEXT_MAX, out)
                if option.get("value") in values:
                    out.append(
                        (
                            (*q, "value"),
                            "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                            "Component option values must be unique",
                        )
                    )
                values.add(option.get("value"))
            if options and high > len(options):
                out.append(
                    (
                        (*p, "max_values"),
                        "SELECT_COMPONENT_MAX_VALUES_EXCEEDED",
                        "max_values must be less than or equal to the number of options",
                    )
                )
        if custom_id is None:
            out.append(((*p, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required"))
    else:
        out.append(((*p, "type"), "UNION_TYPE_CHOICES", "Unknown or misplaced component type"))
    if custom_id is not None:
        _between((*p, "custom_id"), custom_id, 1, CUSTOM_ID_MAX, out)
        if custom_id in seen:
            out.append(
                (
                    (*p, "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            )
        seen.add(custom_id)
    return out


def _check_v2(components: Any) -> list[Problem]:
    """Layout components: only the shared limits (ids, labels, select sizes) are checked."""
    out: list[Problem] = []
    if not isinstance(components, list):
        return [(("components",), "LIST_TYPE_CONVERT", "Must be an array.")]
    seen: set[str] = set()

    def walk(items: list[JSON], p: tuple[str | int, ...]) -> None:
        for i, item in enumerate(items):
            q = (*p, i)
            if item.get("type") in (2, *SELECT_TYPES):
                out.extend(_check_item(q, item, seen))
            walk(item.get("components") or [], (*q, "components"))
            if isinstance(item.get("accessory"), dict) and item["accessory"].get("type") == 2:
                out.extend(_check_item((*q, "accessory"), item["accessory"], seen))

    walk(components, ("components",))
    return out


def check_choices(choices: Any) -> list[Problem]:
    """An autocomplete answer: at most 25 choices, names 1..100, string values up to 100."""
    out: list[Problem] = []
    p: tuple[str | int, ...] = ("data", "choices")
    if not isinstance(choices, list):
        return [(p, "LIST_TYPE_CONVERT", "Must be an array.")]
    if len(choices) > CHOICES_MAX:
        out.append((p, "BASE_TYPE_MAX_LENGTH", f"Must be {CHOICES_MAX} or fewer in length."))
    for i, choice in enumerate(choices):
        _between((*p, i, "name"), choice.get("name"), 1, CHOICE_NAME_MAX, out)
        value = choice.get("value")
        if isinstance(value, str):
            _max_len((*p, i, "value"), value, 100, out)
        for loc, name in (choice.get("name_localizations") or {}).items():
            if loc not in VALID_LOCALES:
                out.append(
                    ((*p, i, "name_localizations"), "INVALID_LOCALE", f"Invalid locale {loc}")
                )
            _between((*p, i, "name_localizations", loc), name, 1, CHOICE_NAME_MAX, out)
    return out


def check_commands(commands: Any) -> list[Problem]:
    """A bulk command overwrite: names, descriptions, localizations, option order and counts."""
    out: list[Problem] = []
    if not isinstance(commands, list):
        return [((), "LIST_TYPE_CONVERT", "Must be an array.")]
    names: set[tuple[int, str]] = set()
    for i, cmd in enumerate(commands):
        kind = cmd.get("type", 1)
        key = (kind, cmd.get("name"))
        if key in names:
            out.append(((i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Duplicate name"))
        names.add(key)
        out.extend(_check_named((i,), cmd, chat=kind == 1))
        if kind == 1:
            out.extend(_check_options((i, "options"), cmd.get("options") or [], depth=0))
    return out


def _check_named(p: tuple[str | int, ...], item: JSON, *, chat: bool) -> list[Problem]:
    out: list[Problem] = []

    def name_ok(q: tuple[str | int, ...], name: Any) -> None:
        # Context-menu names may hold spaces and capitals; slash-command names may not.
        if not isinstance(name, str) or not 1 <= len(name) <= 32:
            bad = True
        elif chat:
            bad = not NAME_RE.match(name) or name != name.lower()
        else:
            bad = False
        if bad:
            out.append(
                (q, "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}")
            )

    name_ok((*p, "name"), item.get("name"))
    if chat:
        _between((*p, "description"), item.get("description"), 1, 100, out)
    for loc, name in (item.get("name_localizations") or {}).items():
        if loc not in VALID_LOCALES:
            out.append(((*p, "name_localizations"), "INVALID_LOCALE", f"Invalid locale {loc}"))
        name_ok((*p, "name_localizations", loc), name)
    for loc, text in (item.get("description_localizations") or {}).items():
        if loc not in VALID_LOCALES:
            out.append(
                ((*p, "description_localizations"), "INVALID_LOCALE", f"Invalid locale {loc}")
            )
        _between((*p, "description_localizations", loc), text, 1, 100, out)
    return out


def _check_options(p: tuple[str | int, ...], options: list[JSON], *, depth: int) -> list[Problem]:
    out: list[Problem] = []
    if len(options) > 25:
        out.append((p, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
    seen_optional = False
    names: set[str] = set()
    for i, opt in enumerate(options):
        q = (*p, i)
        out.extend(_check_named(q, opt, chat=True))
        if opt.get("name") in names:
            out.append(((*q, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Duplicate name"))
        names.add(str(opt.get("name")))
        kind = opt.get("type")
        if kind in (1, 2):
            if depth >= (1 if kind == 2 else 2):
                out.append(((*q, "type"), "INVALID_NESTING", "Sub-command nesting too deep"))
            out.extend(_check_options((*q, "options"), opt.get("options") or [], depth=depth + 1))
            continue
        if opt.get("required"):
            if seen_optional:
                out.append(
                    (
                        (*q, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            seen_optional = True
        choices = opt.get("choices") or []
        if choices and opt.get("autocomplete"):
            out.append(((*q, "autocomplete"), "AUTOCOMPLETE_CHOICES", "Autocomplete with choices"))
        if len(choices) > 25:
            out.append(((*q, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
        for j, choice in enumerate(choices):
            out.extend(_check_choice_localizations((*q, "choices", j), choice))
    return out


def _check_choice_localizations(p: tuple[str | int, ...], choice: JSON) -> list[Problem]:
    out: list[Problem] = []
    _between((*p, "name"), choice.get("name"), 1, CHOICE_NAME_MAX, out)
    for loc, name in (choice.get("name_localizations") or {}).items():
        if loc not in VALID_LOCALES:
            out.append(((*p, "name_localizations"), "INVALID_LOCALE", f"Invalid locale {loc}"))
        _between((*p, "name_localizations", loc), name, 1, CHOICE_NAME_MAX, out)
    return out


def check_modal(data: JSON) -> list[Problem]:
    """A modal: title up to 45, 1..5 rows or labels, each input with a custom id up to 100."""
    out: list[Problem] = []
    p: tuple[str | int, ...] = ("data",)
    _between((*p, "title"), data.get("title"), 1, 45, out)
    _between((*p, "custom_id"), data.get("custom_id"), 1, CUSTOM_ID_MAX, out)
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        out.append(
            ((*p, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
        )
    for i, top in enumerate(components):
        q = (*p, "components", i)
        if top.get("type") == 18:
            _between((*q, "label"), top.get("label"), 1, 45, out)
            inner = top.get("component") or {}
            _between((*q, "component", "custom_id"), inner.get("custom_id"), 1, CUSTOM_ID_MAX, out)
        elif top.get("type") == 1:
            for j, item in enumerate(top.get("components") or []):
                _between(
                    (*q, "components", j, "custom_id"), item.get("custom_id"), 1, CUSTOM_ID_MAX, out
                )
                if item.get("label") is not None:
                    _max_len((*q, "components", j, "label"), item.get("label"), 45, out)
    return out
