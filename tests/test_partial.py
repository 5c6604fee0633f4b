"""JSON read while it streams: viability, completion, argument values, and doomed extra calls."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.local.decision.grounding import (
    adds_new_grounded_values,
    conversation_text,
    rules_out_extra_call,
)
from toolkit.local.format.json_scan import JsonScanner

CALL = (
    '<tool_call>\n{"name": "get_weather", "arguments": {"city": "北\\"京", "n": 12, '
    '"xs": [1.5, "a", {"k": true}], "z": null, "e": -2e3}}\n</tool_call>'
)


def _arguments_scanner() -> JsonScanner:
    return JsonScanner(values_under="arguments", skip_prefix=True)


def _scan(text: str, step: int) -> list:
    scanner = _arguments_scanner()
    found = []
    for i in range(0, len(text), step):
        found += scanner.feed(text[i : i + step])
    return found


def test_values_come_out_in_order_whatever_the_piece_size() -> None:
    expected = ['北"京', 12, 1.5, "a", True, None, -2000.0]
    for step in (1, 2, 3, 7, len(CALL)):
        assert _scan(CALL, step) == expected


def test_a_value_is_reported_as_soon_as_it_is_complete() -> None:
    scanner = _arguments_scanner()
    assert scanner.feed('{"name": "f", "arguments": {"city": "Par') == []
    assert scanner.feed('is", "days": 1') == ["Paris"]  # the number may still go on
    assert scanner.feed("0") == []
    assert scanner.feed("}") == [10]


def test_names_keys_and_text_outside_the_arguments_are_not_values() -> None:
    assert _scan('{"name": "add", "id": 3, "arguments": {}}', 1) == []


def test_malformed_text_never_raises() -> None:
    for text in ('{"arguments": {"a": tru}', "}}]]{{", '{"arguments": {"a": "\\', "\x00{[,:"):
        _scan(text, 1)


_scalars = st.one_of(
    st.text(max_size=8), st.integers(-50, 50), st.booleans(), st.none(), st.floats(-5, 5)
)


@settings(deadline=None)  # a property of values, not of time: a loaded machine is no failure
@given(
    arguments=st.dictionaries(st.sampled_from("abc"), _scalars, max_size=3),
    previous=st.lists(st.dictionaries(st.sampled_from("ab"), _scalars, max_size=2), max_size=2),
    words=st.lists(st.sampled_from(["paris", "3", "true", "rome", "x y"]), max_size=4),
)
def test_a_value_that_rules_the_call_out_means_the_full_check_fails(
    arguments: dict, previous: list, words: list
) -> None:
    text = conversation_text([{"role": "user", "content": " ".join(words)}])
    values = _scan(json.dumps({"name": "f", "arguments": arguments}), 4)
    assert values == list(arguments.values())
    if any(rules_out_extra_call(v, previous, text) for v in values):
        assert not adds_new_grounded_values(arguments, previous, text)


def test_rules_out_extra_call_examples() -> None:
    text = conversation_text([{"role": "user", "content": "Weather in Beijing and Xi'an?"}])
    first = [{"city": "Beijing", "unit": "celsius"}]
    assert rules_out_extra_call("Shanghai", first, text)  # invented
    assert not rules_out_extra_call("Xi'an", first, text)  # the second city
    assert not rules_out_extra_call("celsius", first, text)  # used by the first call
    assert not rules_out_extra_call("", first, text)
    assert not rules_out_extra_call(None, first, text)


@pytest.mark.parametrize(
    ("text", "viable", "complete"),
    [
        ('{"a": [1, "x", {"b": null}]}', True, True),
        ('{"a": [1, "x"', True, False),
        ("[true, false, -1.5e3]", True, True),
        ('{"a" 1}', False, False),
        ('{"a": tru', True, False),
        ('{"a": trux}', False, False),
        ("{'a': 1}", False, False),
        ('{"a": "\\u00e9"}', True, True),
        ('{"a": "\\uZZ"}', False, False),
        ('{"a": "line\nbreak"}', False, False),  # a raw control character in a string
        ("[1, 2}", False, False),
        ('{"a": 1} trailing text', True, True),
    ],
)
def test_viability_and_completion_whatever_the_piece_size(text, viable, complete) -> None:
    for step in (1, 3, len(text)):
        scanner = JsonScanner()
        for i in range(0, len(text), step):
            scanner.feed(text[i : i + step])
        assert scanner.dead is not viable, (text, step)
        assert scanner.complete is complete, (text, step)
        assert scanner.consumed == len(text)


@settings(deadline=None)
@given(
    st.recursive(
        _scalars, lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=8
    )
)
def test_any_json_value_in_a_container_is_viable_and_completes(value) -> None:
    text = json.dumps([value])
    scanner = JsonScanner()
    for i, char in enumerate(text):  # every proper prefix may still become valid JSON
        assert not scanner.dead and not scanner.complete, text[:i]
        assert scanner.feed(char) == []
    assert not scanner.dead and scanner.complete
