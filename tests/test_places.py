"""A place parameter's value that names no place."""

from __future__ import annotations

import pytest

from toolkit.local.decision.places import unplaced_texts

_SCHEMA = {"properties": {"location": {"type": "string"}, "units": {"type": "string"}}}


@pytest.mark.parametrize(
    ("value", "unplaced"),
    [
        ("nonsense", True),  # a plain English word
        ("march", True),
        ("alpha_key", True),  # a key's spelling
        ("MS_key321", True),
        ("Paris", False),
        ("paris", False),  # a name, though written in lower case
        ("new york", False),
        ("Boston, MA", False),
        ("123 main street", False),  # an address: digits
        ("all", False),  # stands for places
        ("北京", False),
    ],
)
def test_a_place_parameter_holds_a_place(value, unplaced):
    assert bool(unplaced_texts({"location": value}, _SCHEMA)) is unplaced


def test_only_place_parameters_are_read():
    assert unplaced_texts({"units": "metric"}, _SCHEMA) == []
    assert unplaced_texts({"location": "nonsense"}, None) == []
    city = {"properties": {"city_name": {"type": "string"}}}
    assert unplaced_texts({"city_name": "nonsense"}, city) == ["nonsense"]
