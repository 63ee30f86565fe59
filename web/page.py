"""The page's HTML shell and the headers every answer carries.

The shell holds no script or style of its own (the Content-Security-Policy allows only the
server's files): ``table.js`` builds the table from the frames the WebSocket brings.
"""

from __future__ import annotations

import html
from importlib import resources

from bot.i18n import t

STATIC = {"table.js": "text/javascript", "table.css": "text/css"}


def static_files() -> dict[str, tuple[bytes, str]]:
    """The client's files, read once: name to (bytes, content type)."""
    folder = resources.files(__package__).joinpath("static")
    return {name: (folder.joinpath(name).read_bytes(), kind) for name, kind in STATIC.items()}


def security_headers(ws_origin: str) -> dict[str, str]:
    """A strict policy: the server's own script, style and WebSocket, nothing inline, no
    frames around the page, no referrer (a link's pass must not leak)."""
    policy = "; ".join(
        [
            "default-src 'none'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            f"connect-src 'self' {ws_origin}",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'none'",
        ]
    )
    return {
        "Content-Security-Policy": policy,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "X-Frame-Options": "DENY",
        "Cross-Origin-Opener-Policy": "same-origin",
    }


def _document(title: str, locale: str, body: str, *, script: bool) -> str:
    """A whole page around ``body``: its language, the phone's width, the server's style
    (and its script, for the table)."""
    loads = '<script src="/static/table.js" defer></script>\n' if script else ""
    return (
        "<!doctype html>\n"
        f'<html lang="{html.escape(locale)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n"
        '<link rel="stylesheet" href="/static/table.css">\n'
        f"{loads}</head>\n{body}\n</html>\n"
    )


def table_page(game_id: int, locale: str) -> str:
    """The game's page: filled in by ``table.js``, which reads the game from ``data-game``."""
    title = html.escape(t("web.title", locale, game=game_id))
    loading = html.escape(t("web.connecting", locale))
    body = (
        f'<body data-game="{game_id}">\n'
        f'<main id="app"><h1>{title}</h1><p id="status" role="status">{loading}</p></main>\n'
        "</body>"
    )
    return _document(title, locale, body, script=True)


def refusal_page(key: str, locale: str) -> str:
    """Why a link or a cookie opened nothing, and what to do."""
    title = html.escape(t("web.title_plain", locale))
    text = html.escape(t(key, locale))
    body = f'<body><main><h1>{title}</h1><p role="alert">{text}</p></main></body>'
    return _document(title, locale, body, script=False)
