"""The BFCL AST scorer, rule by rule, on hand-built cases that must pass and must fail."""

from __future__ import annotations

import pytest

from toolkit.eval.bfcl_data import CATEGORIES, load_cases, openai_tool_name, to_openai_tool
from toolkit.eval.bfcl_score import Call, normalize_string, schema_valid, score_case

AREA = {
    "name": "geometry.area",
    "description": "Area of a rectangle.",
    "parameters": {
        "type": "dict",
        "properties": {
            "width": {"type": "integer", "description": "Width."},
            "height": {"type": "float", "description": "Height."},
            "unit": {"type": "string", "description": "Unit, default 'm'."},
            "exact": {"type": "boolean", "description": "Exact result."},
        },
        "required": ["width", "height"],
    },
}
AREA_ANSWER = [
    {"geometry.area": {"width": [3], "height": [2.5], "unit": ["m", "meters", ""], "exact": [""]}}
]
STATS = {
    "name": "stats",
    "description": "Statistics.",
    "parameters": {
        "type": "dict",
        "properties": {
            "values": {"type": "array", "items": {"type": "float"}, "description": "Numbers."},
            "point": {"type": "tuple", "items": {"type": "integer"}, "description": "A point."},
            "filters": {
                "type": "array",
                "items": {"type": "dict", "properties": {"field": {"type": "string"}}},
                "description": "Filters.",
            },
            "options": {
                "type": "dict",
                "properties": {"size": {"type": "string"}, "count": {"type": "integer"}},
                "description": "Options.",
            },
            "anything": {"type": "any", "description": "Any value."},
        },
        "required": [],
    },
}


def area(**arguments) -> list[Call]:
    return [Call("geometry.area", arguments)]


def simple(calls: list[Call], answer=AREA_ANSWER, functions=(AREA,)) -> tuple[bool, str]:
    verdict = score_case("simple", list(functions), answer, calls)
    return verdict.passed, verdict.reason


def stats(arguments: dict, expected: dict) -> bool:
    return score_case("simple", [STATS], [{"stats": expected}], [Call("stats", arguments)]).passed


def test_a_correct_call_passes_and_optional_parameters_may_be_given_or_omitted() -> None:
    assert simple(area(width=3, height=2.5)) == (True, "")
    assert simple(area(width=3, height=2.5, unit="meters"))[0]


def test_exact_types_with_int_accepted_for_float() -> None:
    assert simple(area(width=3, height=2.5))[0]
    ok, reason = simple(area(width=3.0, height=2.5))
    assert not ok and "should be integer" in reason
    ok, reason = simple(area(width="3", height=2.5))
    assert not ok and "should be integer" in reason
    passed, _ = simple(
        area(width=3, height=2), [{"geometry.area": {"width": [3], "height": [2.0]}}]
    )
    assert passed
    ok, reason = simple(area(width=True, height=2.5))
    assert not ok and "bool" in reason


def test_a_bool_is_not_an_integer_and_a_string_is_not_a_bool() -> None:
    answer = [{"geometry.area": {"width": [3], "height": [2.5], "exact": [True]}}]
    assert simple(area(width=3, height=2.5, exact=True), answer)[0]
    assert not simple(area(width=3, height=2.5, exact="true"), answer)[0]
    assert not simple(area(width=3, height=2.5, exact=1), answer)[0]


def test_every_required_parameter_must_be_present() -> None:
    ok, reason = simple(area(width=3))
    assert not ok and "required parameter 'height' is missing" in reason


def test_unknown_parameters_fail() -> None:
    ok, reason = simple(area(width=3, height=2.5, depth=1))
    assert not ok and "unknown parameter 'depth'" in reason


def test_a_documented_parameter_the_answer_does_not_use_fails() -> None:
    answer = [{"geometry.area": {"width": [3], "height": [2.5]}}]
    ok, reason = simple(area(width=3, height=2.5, unit="m"), answer)
    assert not ok and "'unit' is not expected" in reason


def test_values_must_be_among_the_accepted_answers() -> None:
    ok, reason = simple(area(width=4, height=2.5))
    assert not ok and "'width' = 4 is not one of [3]" in reason
    assert not simple(area(width=3, height=2.5, unit="feet"))[0]


def test_strings_are_normalised_like_bfcl() -> None:
    answer = [{"geometry.area": {"width": [3], "height": [2.5], "unit": ["Square Meters"]}}]
    for said in (
        "square meters",
        "SQUARE-METERS",
        "square_meters.",
        "square  meters",
        "squaremeters",
    ):
        assert simple(area(width=3, height=2.5, unit=said), answer)[0], said
    assert not simple(area(width=3, height=2.5, unit="square metres"), answer)[0]
    assert normalize_string("April 1, 2024") == normalize_string("april 1 2024")
    assert normalize_string("it's") == 'it"s'


def test_empty_string_marks_an_optional_parameter_and_its_absence_otherwise_fails() -> None:
    answer = [{"geometry.area": {"width": [3], "height": [2.5], "unit": ["m"]}}]
    ok, reason = simple(area(width=3, height=2.5), answer)
    assert not ok and "'unit' is missing" in reason
    assert simple(area(width=3, height=2.5, unit="m"), answer)[0]
    ok, reason = simple(area(width=3, height=2.5, exact=False))
    assert not ok and "'exact' = False should be left out" in reason


def test_variable_allowance_accepts_the_answer_type() -> None:
    answer = [{"geometry.area": {"width": [3], "height": [2.5], "unit": ["", None]}}]
    assert simple(area(width=3, height=2.5, unit=None), answer)[0]
    assert not simple(area(width=3, height=2.5, unit=None))[0]


def test_wrong_function_and_wrong_count_fail() -> None:
    ok, reason = simple([Call("geometry.volume", {"width": 3, "height": 2.5})])
    assert not ok and "instead of 'geometry.area'" in reason
    ok, reason = simple(area(width=3, height=2.5) * 2)
    assert not ok and "expected 1 call(s), got 2" in reason
    ok, reason = simple([])
    assert not ok and "got 0" in reason
    ok, reason = simple([Call("geometry.area", None)])
    assert not ok and "not a JSON object" in reason


def test_lists_compare_in_order_with_int_for_float_and_normalised_strings() -> None:
    assert stats({"values": [1, 2.5]}, {"values": [[1.0, 2.5]]})
    assert not stats({"values": [2.5, 1]}, {"values": [[1.0, 2.5]]})
    assert not stats({"values": [1.0]}, {"values": [[1.0, 2.5]]})
    assert not stats({"values": ["1", 2.5]}, {"values": [[1.0, 2.5]]})
    assert stats({"point": [1, 2]}, {"point": [[1, 2]]})
    assert not stats({"point": [1.0, 2]}, {"point": [[1, 2]]})
    assert not stats({"point": "1, 2"}, {"point": [[1, 2]]})
    assert stats({"point": "p"}, {"point": [[1, 2], "p"]})


def test_dicts_match_one_accepted_dict_key_by_key() -> None:
    expected = {"options": [{"size": ["Large"], "count": ["", 1]}]}
    assert stats({"options": {"size": "large"}}, expected)
    assert stats({"options": {"size": "large", "count": 1}}, expected)
    assert not stats({"options": {"size": "large", "count": 2}}, expected)
    assert not stats({"options": {"size": "large", "colour": "red"}}, expected)
    assert not stats({"options": {"count": 1}}, expected)
    assert not stats({"options": {"size": "large", "count": "1"}}, expected)


def test_lists_of_dicts_and_any() -> None:
    expected = {"filters": [[{"field": ["age"]}, {"field": ["job"]}]]}
    assert stats({"filters": [{"field": "Age"}, {"field": "job"}]}, expected)
    assert not stats({"filters": [{"field": "job"}, {"field": "age"}]}, expected)
    assert not stats({"filters": [{"field": "age"}]}, expected)
    assert stats({"anything": "x**2"}, {"anything": ["x ** 2"]})
    assert not stats({"anything": "x**3"}, {"anything": ["x ** 2"]})


PLAY = {
    "name": "spotify.play",
    "description": "Play an artist.",
    "parameters": {
        "type": "dict",
        "properties": {"artist": {"type": "string"}, "minutes": {"type": "integer"}},
        "required": ["artist", "minutes"],
    },
}
PLAY_ANSWER = [
    {"spotify.play": {"artist": ["Taylor Swift"], "minutes": [20]}},
    {"spotify.play": {"artist": ["Maroon 5"], "minutes": [15]}},
]


def play(artist: str, minutes: int) -> Call:
    return Call("spotify.play", {"artist": artist, "minutes": minutes})


def test_parallel_matching_ignores_order_but_needs_distinct_calls() -> None:
    forward = [play("Taylor Swift", 20), play("Maroon 5", 15)]
    assert score_case("parallel", [PLAY], PLAY_ANSWER, forward).passed
    assert score_case("parallel", [PLAY], PLAY_ANSWER, forward[::-1]).passed
    twice = [play("Taylor Swift", 20), play("Taylor Swift", 20)]
    verdict = score_case("parallel", [PLAY], PLAY_ANSWER, twice)
    assert not verdict.passed and "expected call 2" in verdict.reason
    verdict = score_case("parallel", [PLAY], PLAY_ANSWER, forward[:1])
    assert not verdict.passed and "expected 2 call(s), got 1" in verdict.reason
    swapped = [play("Taylor Swift", 15), play("Maroon 5", 20)]
    assert not score_case("parallel", [PLAY], PLAY_ANSWER, swapped).passed


def test_parallel_finds_a_full_matching_where_first_fit_would_not() -> None:
    answer = [
        {"spotify.play": {"artist": ["Taylor Swift", "Maroon 5"], "minutes": [20]}},
        {"spotify.play": {"artist": ["Taylor Swift"], "minutes": [20]}},
    ]
    calls = [play("Taylor Swift", 20), play("Maroon 5", 20)]
    assert score_case("parallel", [PLAY], answer, calls).passed


def test_multiple_needs_the_right_function_of_several() -> None:
    answer = [{"spotify.play": {"artist": ["Maroon 5"], "minutes": [15]}}]
    right = [play("Maroon 5", 15)]
    assert score_case("multiple", [AREA, PLAY], answer, right).passed
    verdict = score_case("multiple", [AREA, PLAY], answer, area(width=3, height=2.5))
    assert not verdict.passed and "instead of 'spotify.play'" in verdict.reason


def test_irrelevance_passes_only_without_calls_and_relevance_the_opposite() -> None:
    assert score_case("irrelevance", [AREA], [], []).passed
    assert not score_case("irrelevance", [AREA], [], area(width=3, height=2.5)).passed
    assert not score_case("irrelevance", [AREA], [], [Call("geometry.area", None)]).passed
    assert score_case("relevance", [AREA], [], area(width=1, height=1)).passed
    assert not score_case("relevance", [AREA], [], []).passed
    with pytest.raises(ValueError, match="unknown BFCL case kind"):
        score_case("java", [AREA], [], [])


def test_schema_validity_uses_the_converted_tool() -> None:
    tools = [to_openai_tool(AREA)]
    assert schema_valid(tools, "geometry_area", {"width": 3, "height": 2})
    assert not schema_valid(tools, "geometry_area", {"width": 3})
    assert not schema_valid(tools, "geometry_area", {"width": "3", "height": 2})
    assert not schema_valid(tools, "geometry_area", None)
    assert not schema_valid(tools, "geometry.area", {"width": 3, "height": 2})


def _answer_call(expected: dict) -> Call:
    ((name, params),) = expected.items()

    def first(accepted):
        return next(value for value in accepted if value != "")

    def build(value):
        if isinstance(value, dict):
            return {k: build(first(v)) for k, v in value.items() if any(x != "" for x in v)}
        return [build(item) for item in value] if isinstance(value, list) else value

    return Call(name, {p: build(first(v)) for p, v in params.items() if any(x != "" for x in v)})


@pytest.mark.parametrize("category", ["simple_python", "multiple", "parallel"])
def test_every_answer_key_of_the_real_data_passes_its_own_case(category: str) -> None:
    cases = load_cases([category])
    assert len(cases) >= 200
    for case in cases:
        calls = [_answer_call(expected) for expected in reversed(case.answer)]
        verdict = score_case(CATEGORIES[category], case.functions, case.answer, calls)
        assert verdict.passed, (case.id, verdict.reason)
        assert all(openai_tool_name(call.name) in case.names for call in calls)
