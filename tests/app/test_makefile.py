"""``make`` checks the Python it is given before it builds anything: an old Python, one
without its venv module, or an environment an old Python made stops with what to do, and
leaves no half-made ``.venv``. Fake interpreters stand in for the old ones (a script that
answers the version question), so no old Python needs installing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def fake_python(folder: Path, name: str, version: str, *, has_venv: bool = True) -> Path:
    """An executable that says it is Python ``version`` and can do nothing else (without
    ``has_venv``, it fails the venv module check too)."""
    script = folder / name
    other = "exit 0" if has_venv else "exit 1"
    script.write_text(
        f'#!/bin/sh\ncase "$*" in\n  *version_info*) echo {version} ;;\n  *) {other} ;;\nesac\n',
        encoding="utf-8",
    )
    script.chmod(0o755)
    return script


def make(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "--no-print-directory", "-C", str(ROOT), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("target", ["run", "test"])
def test_an_old_python_is_named_with_what_to_do(tmp_path: Path, target: str) -> None:
    python = fake_python(tmp_path, "python3.10", "3.10")
    venv = tmp_path / "venv"
    result = make(target, f"PYTHON={python}", f"VENV={venv}")
    assert result.returncode != 0
    assert f"'{python}' is Python 3.10, and the bot needs 3.11 or newer" in result.stderr
    assert "make PYTHON=python3.11" in result.stderr
    assert "pip" not in result.stderr.lower()
    assert not venv.exists()


def test_a_python_without_venv_says_which_package_to_install(tmp_path: Path) -> None:
    python = fake_python(tmp_path, "python3", "3.12", has_venv=False)
    venv = tmp_path / "venv"
    result = make("run", f"PYTHON={python}", f"VENV={venv}")
    assert result.returncode != 0
    assert "cannot make a virtual environment" in result.stderr
    assert "apt install python3.12-venv" in result.stderr
    assert not venv.exists()


def test_a_missing_python_is_named(tmp_path: Path) -> None:
    result = make("run", f"PYTHON={tmp_path / 'python9'}", f"VENV={tmp_path / 'venv'}")
    assert result.returncode != 0
    assert f"cannot run '{tmp_path / 'python9'}'" in result.stderr


def test_an_environment_an_old_python_made_is_named(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    fake_python(venv / "bin", "python", "3.10")
    result = make("run", f"VENV={venv}")
    assert result.returncode != 0
    assert "uses Python 3.10" in result.stderr
    assert "make clean" in result.stderr
    assert not (venv / ".run-installed").exists()


RECORDING_PYTHON = """#!/bin/sh
# Python 3.12 for make's questions; "-m venv DIR" makes DIR/bin/python (this script again);
# "-m pip ..." records its arguments and PIP_CONSTRAINT, and whether that file exists.
case "$*" in
  *version_info*) echo 3.12 ;;
  "-m venv "*) mkdir -p "$3/bin" && cp "$0" "$3/bin/python" ;;
  "-m pip "*) { echo "PIP_CONSTRAINT=$PIP_CONSTRAINT"; test -f "$PIP_CONSTRAINT" && echo found;
               echo "$@"; } >"$RECORD" ;;
  *) exit 0 ;;
esac
"""


def test_a_checkout_in_a_folder_with_a_space_installs(tmp_path: Path) -> None:
    """``make run``'s install in ``/home/me/my bot``: every path of the checkout reaches the
    commands whole."""
    checkout = tmp_path / "my bot"
    (checkout / "scripts").mkdir(parents=True)
    (checkout / "bot").mkdir()
    copied = ("Makefile", "constraints.txt", "pyproject.toml", "scripts/check-python.sh")
    for name in (*copied, "bot/__init__.py"):
        shutil.copy(ROOT / name, checkout / name)
    python = tmp_path / "python3"
    python.write_text(RECORDING_PYTHON, encoding="utf-8")
    python.chmod(0o755)
    record = tmp_path / "pip.txt"
    result = subprocess.run(
        [
            "make",
            "--no-print-directory",
            "-C",
            str(checkout),
            ".venv/.run-installed",
            f"PYTHON={python}",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"PATH": "/usr/bin:/bin", "RECORD": str(record)},
    )
    assert result.returncode == 0, result.stderr
    assert "not found" not in result.stderr
    lines = record.read_text(encoding="utf-8").splitlines()
    assert lines[:2] == [f"PIP_CONSTRAINT={checkout / 'constraints.txt'}", "found"]
    assert "-c constraints.txt -e ." in lines[2]
    assert (checkout / ".venv" / ".run-installed").is_file()
