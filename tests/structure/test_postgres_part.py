"""Without a PostgreSQL server the suite says so on its last line and runs no PostgreSQL
test; in CI (``CI=true``) a missing server stops the run before any test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.postgres import ENV, SKIPPED

ROOT = Path(__file__).resolve().parents[2]


def run_suite_part(**env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in (ENV, "CI")}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "tests/storage/test_postgres.py"],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_without_a_server_the_last_line_says_the_postgresql_part_was_skipped() -> None:
    done = run_suite_part()
    assert done.returncode == 5, done.stdout  # every test deselected: none ran, none skipped
    lines = done.stdout.strip().splitlines()
    assert lines[-1] == SKIPPED
    assert "skipped" not in lines[-2]


def test_ci_refuses_to_run_without_a_server() -> None:
    done = run_suite_part(CI="true")
    assert done.returncode == 4, done.stdout + done.stderr
    assert f"{ENV} is not set, and CI never skips the PostgreSQL part" in done.stderr
