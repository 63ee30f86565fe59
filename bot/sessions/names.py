"""Display names as the bot keeps and shows them: short and free of control characters.

Names come from Discord and end up in messages, pictures and the database; an unbounded or
control-character-laden name would break layouts and replies (bidi overrides reorder text).
"""

from __future__ import annotations

import unicodedata

NAME_LIMIT = 32
_KEEP = {"\u200d"}  # the zero-width joiner builds emoji sequences people use in names
_DROP = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def clean_name(text: str, limit: int = NAME_LIMIT, fallback: str = "player") -> str:
    """``text`` without control or format characters, white space collapsed, at most
    ``limit`` characters (cut names end with an ellipsis).

    >>> clean_name("  Ann\\u202e\\x00  Smith\\n")
    'Ann Smith'
    >>> clean_name("x" * 40)
    'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'
    >>> clean_name("\\x07")
    'player'
    """
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in text
        if ch.isspace() or ch in _KEEP or unicodedata.category(ch) not in _DROP
    )
    name = " ".join(kept.split())
    if not name:
        return fallback
    if len(name) > limit:
        name = name[: limit - 1].rstrip() + "…"
    return name
