"""The chat-completions helpers both ends share: call ids, content text, tool_choice, JSON text."""

from __future__ import annotations

import pytest

from toolkit.wire import content_text, forced_tool_name, json_text, normalise_tool_choice

NAMED = {"type": "function", "function": {"name": "add"}}


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (None, None),
        (False, None),
        (True, "required"),
        ("any", "required"),
        ({"type": "any"}, "required"),
        ({"type": "required"}, "required"),
        ("auto", "auto"),
        ({"type": "auto"}, "auto"),
        ("none", "none"),
        ("required", "required"),
        ("add", NAMED),
        (NAMED, NAMED),
        ({"type": "function", "name": "add"}, NAMED),
        ({"function": {"name": "add"}}, NAMED),
    ],
)
def test_every_tool_choice_spelling_becomes_openais_own(given, expected) -> None:
    assert normalise_tool_choice(given) == expected


@pytest.mark.parametrize("bad", [42, "", {"type": "function"}, {"type": "sometimes"}, ["add"]])
def test_a_malformed_tool_choice_says_what_is_valid(bad) -> None:
    with pytest.raises(ValueError, match="tool_choice must be"):
        normalise_tool_choice(bad)


def test_forced_tool_name_only_for_a_named_tool() -> None:
    assert forced_tool_name("add") == "add"
    assert forced_tool_name({"type": "function", "name": "add"}) == "add"
    for choice in (None, "auto", "none", "required", "any", True):
        assert forced_tool_name(choice) is None


def test_content_text_joins_text_parts_and_skips_others() -> None:
    assert content_text("plain") == "plain"
    assert content_text(None) == ""
    parts = [
        {"type": "text", "text": "a"},
        {"type": "image_url", "image_url": {"url": "x"}},
        "b",
        {"type": "text", "text": None},
        {"text": "c"},
    ]
    assert content_text(parts) == "abc"
    assert content_text(42) == ""


def test_json_text_keeps_non_ascii_and_falls_back_to_str() -> None:
    assert json_text({"城市": "西安"}) == '{"城市": "西安"}'
    assert json_text([1, 2.5, None]) == "[1, 2.5, null]"
    circular: list = []
    circular.append(circular)
    assert json_text(circular) == "[[...]]"
    assert json_text({1, 2}) in ('"{1, 2}"', '"{2, 1}"')  # not JSON: its str, as JSON text
