"""Formats: a date or a time is written as its parameter's description asks, and only then."""

from __future__ import annotations

from toolkit.local.decision.formats import in_described_formats


def _schema(description: str) -> dict:
    return {
        "type": "object",
        "properties": {"when": {"type": "string", "description": description}},
    }


def test_a_date_is_written_in_the_described_format() -> None:
    iso = _schema("The date of the event in the format 'YYYY-MM-DD'.")
    text = "Any theater events in Oakland on 2023.4.11?"
    assert in_described_formats({"when": "2023.4.11"}, iso, text) == {"when": "2023-04-11"}
    assert in_described_formats({"when": "2023-10-2"}, iso, text) == {"when": "2023-10-02"}
    us = _schema("The date of the train journey, in the format 'MM/DD/YYYY'.")
    assert in_described_formats({"when": "2023-04-22"}, us, text) == {"when": "04/22/2023"}
    worded = _schema("The date (month-day-year) you want the air quality for.")
    assert in_described_formats({"when": "2022/08/16"}, worded, text) == {"when": "08-16-2022"}


def test_a_date_of_two_readings_is_the_one_the_conversation_states() -> None:
    iso = _schema("Use the format 'YYYY-MM-DD'.")
    stated = "Book it for 5 April 2022."
    assert in_described_formats({"when": "04/05/2022"}, iso, stated) == {"when": "2022-04-05"}
    # neither reading stated: left as written
    assert in_described_formats({"when": "04/05/2022"}, iso, "soon") == {"when": "04/05/2022"}


def test_values_without_a_described_format_or_one_date_are_left_alone() -> None:
    plain = _schema("Start of the date range.")
    assert in_described_formats({"when": "2023.4.11"}, plain, "") == {"when": "2023.4.11"}
    iso = _schema("Dates as 'YYYY-MM-DD'.")
    span = "2023-04-11 to 2023-4-15"
    assert in_described_formats({"when": span}, iso, "") == {"when": span}
    assert in_described_formats({"when": 20230411}, iso, "") == {"when": 20230411}
    assert in_described_formats({"other": "2023.4.11"}, iso, "") == {"other": "2023.4.11"}


def test_a_stated_time_is_written_on_the_24_hour_clock_the_description_asks_for() -> None:
    clock = _schema("The time to set for the new alarm, in 24-hour format (HH:MM).")
    text = "Could you set a new alarm for 5 in the afternoon labeled 'Grocery run'?"
    assert in_described_formats({"when": "5:00 PM"}, clock, text) == {"when": "17:00"}
    assert in_described_formats({"when": "5pm"}, clock, text) == {"when": "17:00"}
    # a time nobody stated, or a description that takes am/pm: as written
    assert in_described_formats({"when": "6:00 PM"}, clock, text) == {"when": "6:00 PM"}
    meridiem = _schema("The pickup time in the format 'HH:MM AM/PM'.")
    assert in_described_formats({"when": "5:00 PM"}, meridiem, text) == {"when": "5:00 PM"}
