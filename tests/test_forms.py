"""Values in the forms their parameters take (toolkit.local.decision.forms)."""

from __future__ import annotations

from typing import Any

import pytest

from toolkit.local.decision.forms import (
    in_hemisphere_signs,
    in_percent_form,
    in_stated_dates,
    stated_percentages,
    without_dangling_joints,
    without_other_spans,
)


def _schema(**properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


RATE = {"type": "number", "description": "The annual interest rate."}
IN_PERCENT = {"type": "number", "description": "Interest rate in percentage."}
AS_DECIMAL = {"type": "number", "description": "The rate as a decimal. E.g. 5% is 0.05"}
WHOLE = {"type": "integer", "description": "The lightness in percentage."}


def test_percentages_are_read_in_symbols_and_words() -> None:
    assert stated_percentages("5%, 4.5 % and 7 percent, not 15 years") == {5.0, 4.5, 7.0}


@pytest.mark.parametrize(
    ("schema", "value", "text", "written"),
    [
        (RATE, 5, "an annual interest rate of 5%", 0.05),
        (RATE, 2.5, "2.5 percent a year", 0.025),
        (AS_DECIMAL, 4, "at 4% for 7 years", 0.04),
        (IN_PERCENT, 5, "an annual rate of 5%", 5),  # the description asks for percent
        (IN_PERCENT, 0.05, "an annual rate of 5%", 5),  # and gets it from a fraction
        (WHOLE, 70, "a lightness of 70%", 70),  # an integer takes the number stated
        (RATE, 0.05, "an annual interest rate of 5%", 0.05),  # already a fraction
        (RATE, 5, "a rate of 5 and a fee of 5%", 0.05),  # a rate's parameter: the percentage
        (RATE, 3, "a rate of 3", 3),  # no percentage stated
    ],
)
def test_a_percentage_is_written_as_its_parameter_takes_it(
    schema: dict, value: float, text: str, written: float
) -> None:
    assert in_percent_form({"x_rate": value}, _schema(x_rate=schema), text) == {"x_rate": written}


def test_a_number_stated_plainly_too_stays_in_a_parameter_of_no_rate() -> None:
    schema = _schema(period={"type": "number", "description": "The term."})
    # "5 years" states the 5 the call took; "5%" is another value.
    assert in_percent_form({"period": 5}, schema, "5% for 5 years") == {"period": 5}


def test_percentages_inside_objects_and_arrays_are_written_too() -> None:
    schema = _schema(
        plan={"type": "object", "properties": {"rate": RATE}},
        rates={"type": "array", "items": RATE},
    )
    arguments = {"plan": {"rate": 6}, "rates": [6, 7]}
    written = in_percent_form(arguments, schema, "rates of 6% and 7%")
    assert written == {"plan": {"rate": 0.06}, "rates": [0.06, 0.07]}


@pytest.mark.parametrize(
    ("arguments", "text", "written"),
    [
        # another argument's number at the end, with the word joining it
        (
            {"act_name": "Criminal Law Amendment Act of 2013", "amendment_year": 2013},
            "Give me the details of Criminal Law Amendment Act of 2013.",
            {"act_name": "Criminal Law Amendment Act", "amendment_year": 2013},
        ),
        # another argument's word, written in lower case
        (
            {"key": "C sharp major", "scale_type": "major"},
            "What is the musical scale associated with C sharp major?",
            {"key": "C sharp", "scale_type": "major"},
        ),
        # the parameter's own name, in lower case
        (
            {"county": "Santa Clara county", "address": "123 main street"},
            "my house at 123 main street in Santa Clara county",
            {"county": "Santa Clara", "address": "123 main street"},
        ),
    ],
)
def test_a_span_loses_the_words_another_argument_or_the_parameter_holds(
    arguments: dict, text: str, written: dict
) -> None:
    schema = _schema(**{key: {"type": "string"} for key in arguments})
    assert without_other_spans(arguments, schema, text) == written


@pytest.mark.parametrize(
    ("arguments", "text"),
    [
        # a proper name holds a place's name
        (
            {"hotel_name": "Hotel Le Bristol Paris", "location": "Paris"},
            "stay at Hotel Le Bristol Paris, in Paris",
        ),
        ({"city": "Salt Lake City"}, "flights to Salt Lake City"),
        # the name's own word is in capitals, though the text has it in lower case elsewhere
        ({"lake": "Crater Lake"}, "Which lake is deeper, Lake Tahoe or Crater Lake?"),
        # a name of several words names no kind of its value
        ({"field_of_law": "constitutional law"}, "top cases in constitutional law"),
        # a value the user quotes
        ({"title": "Ocean major", "mode": "major"}, "play 'Ocean major' in a major key"),
        # a comma joins parts of one value
        ({"location": "New York, NY", "state": "NY"}, "in New York, NY"),
        # a value that is only the other argument's words is no span to trim
        ({"genre": "jazz", "style": "jazz"}, "some jazz"),
    ],
)
def test_a_span_is_kept_whole(arguments: dict, text: str) -> None:
    schema = _schema(**{key: {"type": "string"} for key in arguments})
    assert without_other_spans(arguments, schema, text) == arguments


def test_a_leading_article_the_text_writes_in_lower_case_is_left_out() -> None:
    schema = _schema(content={"type": "string"}, holder={"type": "string"})
    text = "The image shows the Coca-Cola logo, a trademark of The Coca-Cola Company."
    arguments = {"content": "The Coca-Cola logo", "holder": "The Coca-Cola Company"}
    # a capital article mid-sentence is part of a name
    written = {"content": "Coca-Cola logo", "holder": "The Coca-Cola Company"}
    assert without_other_spans(arguments, schema, text) == written


def test_only_text_parameters_are_trimmed() -> None:
    schema = _schema(mode={"type": "string", "enum": ["dark mode", "mode"]})
    assert without_other_spans({"mode": "dark mode"}, schema, "dark mode") == {"mode": "dark mode"}


def test_a_date_copied_wrong_is_the_users_date() -> None:
    text = "What date is 45 days after October 1, 2026?"
    assert in_stated_dates({"date": "2026-10-10", "days": 45}, text) == {
        "date": "2026-10-01",
        "days": 45,
    }
    assert in_stated_dates({"date": "2026-11-15"}, text) == {"date": "2026-11-15"}


def test_a_lists_joint_copied_with_a_spaceless_value_is_left_out():
    question = "泰萨利钢琴工坊和马罗比钢琴工坊合计有多少名工匠？"
    assert without_dangling_joints({"name": "泰萨利钢琴工坊和"}, question) == {
        "name": "泰萨利钢琴工坊"
    }
    assert without_dangling_joints({"name": "和马罗比钢琴工坊"}, question) == {
        "name": "马罗比钢琴工坊"
    }
    # a name that ends in the joint's character, or a span the text does not write, stays
    assert without_dangling_joints({"name": "保和"}, "保和殿有多大？") == {"name": "保和"}
    assert without_dangling_joints({"name": "北京和"}, "北京的气温") == {"name": "北京和"}
    assert without_dangling_joints({"city": "Boston and"}, "Boston and Paris") == {
        "city": "Boston and"
    }


def test_a_name_copied_with_its_possessive_is_bare_when_it_ends_with_its_kind():
    from toolkit.local.decision.forms import without_possessive

    text = "Whose top player is rated higher, Vellacott Chess Club's or Kestrow Chess Club's?"
    kind = {"lookup", "chess", "club"}
    bare = without_possessive({"name": "Kestrow Chess Club's"}, "name", kind, text)
    assert bare == {"name": "Kestrow Chess Club"}
    # a name whose last word is no word of the tool's kind keeps it
    store = "What does Trader Joe's sell?"
    kept = without_possessive({"name": "Trader Joe's"}, "name", {"get", "store"}, store)
    assert kept == {"name": "Trader Joe's"}
    # no lookup key: nothing to read
    assert without_possessive({"x": "Kestrow Chess Club's"}, None, kind, text) == {
        "x": "Kestrow Chess Club's"
    }


@pytest.mark.parametrize(
    ("arguments", "text", "expected"),
    [
        (
            {"latitude": 37.8651, "longitude": 119.5383},
            "the coordinates 37.8651 N, 119.5383 W",
            {"latitude": 37.8651, "longitude": -119.5383},
        ),
        ({"lat": 33.9, "lng": 151.2}, "33.9° S, 151.2° E", {"lat": -33.9, "lng": 151.2}),
        ({"lat": 33.9}, "南纬33.9度的天气", {"lat": -33.9}),
        # Already signed, or not a coordinate: as written.
        ({"longitude": -119.5}, "at 119.5 W", {"longitude": -119.5}),
        ({"distance": 12}, "12 W of here", {"distance": 12}),
        ({"longitude": 12.5}, "12.5 E", {"longitude": 12.5}),
    ],
)
def test_a_western_or_southern_coordinate_is_negative(arguments, text, expected) -> None:
    assert in_hemisphere_signs(arguments, text) == expected


def test_a_parameters_word_copied_after_its_value_in_lower_case_is_left_out() -> None:
    from toolkit.local.decision.forms import without_parameter_word

    schema = {
        "properties": {
            "cuisine": {"type": "string"},
            "league": {"type": "string"},
            "city": {"type": "string"},
            "genre": {"type": "string", "enum": ["rock genre", "pop"]},
        }
    }
    text = "Chinese cuisine near the Premier League ground in Mexico City, rock genre only"
    arguments = {
        "cuisine": "Chinese cuisine",
        "league": "Premier League",  # in capitals: the name's own word
        "city": "Mexico City",
        "genre": "rock genre",  # "rock" is no value of the enum
    }
    assert without_parameter_word(arguments, schema, text) == {
        "cuisine": "Chinese",
        "league": "Premier League",
        "city": "Mexico City",
        "genre": "rock genre",
    }
