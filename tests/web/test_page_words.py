"""The page speaks the person's language, from the same catalogs as the chat; the fields of
its texts are left for the page to fill."""

from __future__ import annotations

from bot.i18n import available_locales
from web.page import static_files, table_page
from web.words import PAGE_KEYS, page_words


def test_every_language_has_every_page_text_with_its_fields() -> None:
    english = page_words("en")
    assert len(english) == len(PAGE_KEYS)
    for locale in available_locales():
        words = page_words(locale)
        assert words.keys() == english.keys()
        assert "{count}" in words["stock"]
        assert "{player}" in words["turn_of"]
    assert page_words("fr")["your_turn"] == "À toi de jouer."
    assert page_words("ru")["rank.12"] == "Дама"


def test_the_page_names_its_language_and_carries_no_script_of_its_own() -> None:
    page = table_page(12, "cs")
    assert '<html lang="cs">' in page
    assert '<body data-game="12">' in page
    assert "<script>" not in page
    assert 'src="/static/table.js"' in page
    assert "style=" not in page


def test_the_first_load_stays_small() -> None:
    """The page, its script and its style: far under the 200 KB a phone should have to
    fetch before it shows the table (the first frames come after)."""
    files = static_files()
    assert set(files) == {"table.js", "table.css"}
    size = len(table_page(1, "en").encode()) + sum(len(body) for body, _ in files.values())
    assert size < 200_000
