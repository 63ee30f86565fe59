"""The fake's command-sync checks: a sync Discord would refuse must fail here too."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.fake.validate import ApiError, check_commands, check_modal


def _command(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "name": "meld",
        "description": "Meld cards",
        "type": 1,
        "options": [
            {"name": "cards", "description": "The cards", "type": 3, "required": True},
            {"name": "reading", "description": "Which reading", "type": 3},
        ],
    }
    return {**base, **changes}


def _option(i: int) -> dict[str, Any]:
    return {"name": f"o{i}", "description": "x", "type": 3}


BAD: list[tuple[str, dict[str, Any]]] = [
    ("upper case name", _command(name="Meld")),
    ("space in name", _command(name="meld cards")),
    ("long name", _command(name="m" * 33)),
    ("empty description", _command(description="")),
    ("long description", _command(description="d" * 101)),
    ("unknown locale", _command(name_localizations={"xx": "poser"})),
    ("bad localized name", _command(name_localizations={"fr": "Poser Cartes"})),
    ("long localized description", _command(description_localizations={"fr": "d" * 101})),
    ("26 options", _command(options=[_option(i) for i in range(26)])),
    (
        "required after optional",
        _command(
            options=[
                {"name": "a", "description": "x", "type": 3},
                {"name": "b", "description": "x", "type": 3, "required": True},
            ]
        ),
    ),
    (
        "26 choices",
        _command(
            options=[
                {
                    "name": "a",
                    "description": "x",
                    "type": 3,
                    "choices": [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)],
                }
            ]
        ),
    ),
    (
        "long choice name",
        _command(
            options=[
                {
                    "name": "a",
                    "description": "x",
                    "type": 3,
                    "choices": [{"name": "n" * 101, "value": "v"}],
                }
            ]
        ),
    ),
    (
        "too deep",
        _command(
            options=[
                {
                    "name": "g",
                    "description": "x",
                    "type": 2,
                    "options": [
                        {
                            "name": "h",
                            "description": "x",
                            "type": 2,
                            "options": [{"name": "s", "description": "x", "type": 1}],
                        }
                    ],
                }
            ]
        ),
    ),
]


@pytest.mark.parametrize(("name", "command"), BAD, ids=[b[0] for b in BAD])
def test_refused_commands(name: str, command: dict[str, Any]) -> None:
    assert check_commands([command])


def test_duplicate_command_names() -> None:
    assert check_commands([_command(), _command()])


def test_good_commands_pass() -> None:
    assert check_commands([_command(name_localizations={"fr": "poser", "es-ES": "bajar"})]) == []
    group = {
        "name": "rummy",
        "description": "Play",
        "options": [
            {
                "name": "league",
                "description": "x",
                "type": 2,
                "options": [{"name": "table", "description": "x", "type": 1}],
            },
            {"name": "new", "description": "x", "type": 1, "options": [_option(1)]},
        ],
    }
    assert check_commands([group]) == []


def test_error_body_nests_the_path() -> None:
    error = ApiError.form(check_commands([_command(name="Meld")]))
    assert error.status == 400
    assert error.code == 50035
    assert error.body()["errors"]["0"]["name"]["_errors"][0]["code"] == (
        "APPLICATION_COMMAND_INVALID_NAME"
    )


def test_modal_limits() -> None:
    ok = {
        "custom_id": "m",
        "title": "t" * 45,
        "components": [
            {"type": 18, "label": "Name", "component": {"type": 4, "custom_id": "name"}}
        ],
    }
    assert check_modal(ok) == []
    assert check_modal({**ok, "title": "t" * 46})
    assert check_modal({**ok, "components": []})


def test_context_menu_names_may_have_spaces() -> None:
    menu = {"name": "Show Hand", "type": 2, "description": ""}
    assert check_commands([menu]) == []
    assert check_commands([{**menu, "name": "x" * 33}])
