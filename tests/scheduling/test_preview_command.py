import io
import json

import pytest
from django.core.management import CommandError, call_command


def preview(*args: str) -> tuple[dict, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("preview_schedule", *args, stdout=out, stderr=err)
    return json.loads(out.getvalue()), err.getvalue()


def test_prints_rounds_of_tables_as_json_with_a_summary():
    data, summary = preview("--players", "15", "--table-size", "3", "--rounds", "7")
    assert list(data) == ["rounds"]
    assert len(data["rounds"]) == 7
    for tables in data["rounds"]:
        assert sorted(p for t in tables for p in t) == list(range(15))
    assert "max pair meetings: 1" in summary
    assert "repeated pairs: 0" in summary


def test_is_deterministic_for_a_seed():
    args = ("--players", "10", "--table-size", "3", "--rounds", "4", "--format", "swiss")
    first, _ = preview(*args, "--seed", "5")
    again, _ = preview(*args, "--seed", "5")
    other, _ = preview(*args, "--seed", "6")
    assert first == again
    assert first != other


def test_bot_seats_are_null():
    data, _ = preview("--players", "7", "--table-size", "4", "--rounds", "2", "--leftover", "bot")
    assert all(len(t) == 4 for tables in data["rounds"] for t in tables)
    assert any(None in t for tables in data["rounds"] for t in tables)


def test_bad_input_is_a_command_error():
    with pytest.raises(CommandError, match="3 or 4"):
        preview("--players", "10", "--table-size", "5", "--rounds", "2")
