"""The engine's page shows the engine at work: its Python example is run as a doctest, so a
change of the engine's surface that the page does not follow fails here."""

from __future__ import annotations

import doctest
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "engine.md"


def test_the_example_on_the_engine_page_runs_as_written() -> None:
    text = PAGE.read_text("utf-8")
    example = doctest.DocTestParser().get_doctest(text, {}, "docs/engine.md", str(PAGE), 0)
    assert len(example.examples) >= 10, "the engine page lost its example"
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(example, out=report.append)
    assert runner.failures == 0, "".join(report)
