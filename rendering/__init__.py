"""Pictures of a game: a read-only view in, PNG bytes out.

Pure functions with no Discord, network or database: the same input gives the same bytes,
and every function is safe to call from a worker thread (``asyncio.to_thread``). Each
picture has a ``layout_*`` twin returning the geometry it would paint, for tests.
"""

from rendering.chart import layout_score_chart, render_score_chart
from rendering.hand import layout_hand, render_hand, sorted_hand
from rendering.layout import Box, Layout
from rendering.league import (
    PlayerCard,
    RecentGame,
    StandingRow,
    layout_player_card,
    layout_standings,
    render_player_card,
    render_standings,
)
from rendering.summary import layout_round_summary, render_round_summary
from rendering.table import layout_table, render_table
from rendering.theme import THEMES

__all__ = [
    "THEMES",
    "Box",
    "Layout",
    "PlayerCard",
    "RecentGame",
    "StandingRow",
    "layout_hand",
    "layout_player_card",
    "layout_round_summary",
    "layout_score_chart",
    "layout_standings",
    "layout_table",
    "render_hand",
    "render_player_card",
    "render_round_summary",
    "render_score_chart",
    "render_standings",
    "render_table",
    "sorted_hand",
]
