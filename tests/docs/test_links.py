"""Every link between the project's pages leads somewhere: the file exists, and a ``#part``
names a heading of it, as GitHub makes its anchors. Pages move; a newcomer should never
follow a link into nothing."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md"]
PAGES += sorted((ROOT / "docs").glob("*.md"))
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def prose(page: Path) -> list[str]:
    """The page's lines outside fenced code blocks."""
    lines, fenced = [], False
    for line in page.read_text("utf-8").splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    return {anchor(line.lstrip("#")) for line in prose(page) if line.startswith("#")}


def broken_links(page: Path) -> list[str]:
    broken = []
    for line in prose(page):
        for target in LINK.findall(line):
            if re.match(r"[a-z]+:", target):
                continue  # https:, mailto:
            path, _, part = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            name = linked.relative_to(ROOT).as_posix() if linked.is_relative_to(ROOT) else path
            if not linked.exists():
                broken.append(f"{target}: no such file")
            elif part and linked.suffix == ".md" and part not in anchors(linked):
                broken.append(f"{target}: no heading #{part} in {name}")
    return broken


def test_every_link_between_the_pages_leads_somewhere() -> None:
    found = {page.relative_to(ROOT).as_posix(): broken_links(page) for page in PAGES}
    assert {page: links for page, links in found.items() if links} == {}


def test_the_anchors_are_githubs() -> None:
    assert anchor("Run it as a service") == "run-it-as-a-service"
    assert anchor("When a channel, a server or a member goes") == (
        "when-a-channel-a-server-or-a-member-goes"
    )
    assert anchor(" Erasure on PostgreSQL") == "erasure-on-postgresql"
