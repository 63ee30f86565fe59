"""One version, moving with the changelog: CHANGELOG.md's newest release is the version in
``bot/__init__.py``, which the installed package reports too, and the releases run newest
first."""

from __future__ import annotations

import re
from datetime import date
from importlib import metadata
from pathlib import Path

from bot import __version__

ROOT = Path(__file__).resolve().parents[2]
RELEASE = re.compile(r"^## \[(\d+)\.(\d+)\.(\d+)\] - (\d{4}-\d{2}-\d{2})$")


def headings() -> list[str]:
    text = (ROOT / "CHANGELOG.md").read_text("utf-8")
    return [line for line in text.splitlines() if line.startswith("## ")]


def releases() -> list[tuple[tuple[int, int, int], date]]:
    found = []
    for line in headings()[1:]:
        match = RELEASE.match(line)
        assert match, f"not a release heading (## [1.2.3] - YYYY-MM-DD): {line!r}"
        major, minor, patch, day = match.groups()
        found.append(((int(major), int(minor), int(patch)), date.fromisoformat(day)))
    return found


def test_the_newest_release_in_the_changelog_is_the_version() -> None:
    assert headings()[0] == "## [Unreleased]"
    newest, _ = releases()[0]
    assert ".".join(map(str, newest)) == __version__


def test_the_releases_run_newest_first() -> None:
    found = releases()
    assert len(found) >= 2
    assert found == sorted(found, reverse=True)
    assert len({version for version, _ in found}) == len(found)


def test_the_installed_package_reports_the_same_version() -> None:
    installed = metadata.version("rummy-bot")
    assert installed == __version__, (
        f"the installed package says {installed}: reinstall it (make .venv/.dev-installed)"
    )
