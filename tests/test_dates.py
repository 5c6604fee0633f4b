"""Dates: the conversation's dates in any spelling ground a call's dates, and only those."""

from __future__ import annotations

from datetime import date

from toolkit.local.decision.dates import dates_in, days_in, recopied_date, says_dates
from toolkit.local.decision.grounding import (
    adds_new_grounded_values,
    conversation_text,
    rules_out_extra_call,
    ungrounded_values,
)

_HOTELS = conversation_text(
    [
        {
            "role": "user",
            "content": "Check 'Queens Hotel' in Berlin from March 10, 2022 to March 20, 2022 "
            "and 'Royal Hotel' in Paris from April 5, 2022 to April 15, 2022.",
        }
    ]
)
_FIRST = {"hotel": "Queens Hotel", "city": "Berlin", "from": "2022-03-10", "to": "2022-03-20"}


def test_dates_are_read_in_the_spellings_people_write() -> None:
    text = "5th of May 2021, Dec. 1 2020, 2019/07/04, 2018年6月9日, 13.02.2017, on 7 August, 2016"
    assert dates_in(text.casefold()) == {
        date(2021, 5, 5),
        date(2020, 12, 1),
        date(2019, 7, 4),
        date(2018, 6, 9),
        date(2017, 2, 13),  # day first: "13" is no month
        date(2016, 8, 7),
    }
    assert dates_in("04/05/2022") == {date(2022, 4, 5), date(2022, 5, 4)}  # either order
    assert dates_in("march 10 and in 2022, a summary 10, 2022, 99/99/2022") == set()


def test_a_value_says_dates_only_when_the_text_states_each() -> None:
    assert says_dates("2022-04-05", _HOTELS) == " "
    assert says_dates("2022-04-05 to 2022-04-15", _HOTELS) == "  to  "
    assert says_dates("2022-04-06", _HOTELS) is None
    assert says_dates("2022-04-05 to 2022-04-16", _HOTELS) is None
    assert says_dates("Royal Hotel", _HOTELS) is None


def test_the_second_booking_in_iso_dates_is_grounded_in_the_users_month_names() -> None:
    second = {"hotel": "Royal Hotel", "city": "Paris", "from": "2022-04-05", "to": "2022-04-15"}
    assert adds_new_grounded_values(second, [_FIRST], _HOTELS)
    for spelling in ("2022-04-05", "04/05/2022", "Apr. 5, 2022"):
        assert not rules_out_extra_call(spelling, [_FIRST], _HOTELS), spelling
    # a day nobody named, or a date with a city nobody named, is still the model's own
    for invented in ("2022-04-06", "April 6, 2022", "2022-04-05 Rome", "2022-04-05T14:00"):
        assert rules_out_extra_call(invented, [_FIRST], _HOTELS), invented


def test_a_stated_dates_numbers_are_the_users_and_an_unstated_ones_are_not() -> None:
    assert ungrounded_values({"from": "2022-04-05", "to": "2022-04-15"}, None, _HOTELS) == []
    assert ungrounded_values({"from": "2022-04-07"}, None, _HOTELS) == [4.0, 7.0]


def test_a_day_stated_without_its_year_grounds_the_date_in_any_year() -> None:
    text = conversation_text([{"role": "user", "content": "A room in Paris from 20th June."}])
    assert days_in(text) == {(6, 20)}
    assert says_dates("2023-06-20", text) is not None
    assert ungrounded_values({"start_date": "2023-06-20"}, None, text) == []
    # another day of that month is still the model's own
    assert says_dates("2023-06-21", text) is None
    assert ungrounded_values({"start_date": "2023-06-21"}, None, text) != []


def test_a_date_copied_wrong_from_the_users_one_date_is_written_right() -> None:
    text = "2026年10月1日再过45天是几月几号？"
    assert recopied_date("2026-10-10", text) == "2026-10-01"  # the month again for the day
    assert recopied_date("2026/01/10", text) == "2026/10/01"  # month and day swapped
    assert recopied_date("2026-10-01", text) is None  # the user's date
    assert recopied_date("2026-11-15", text) is None  # another day: a date of its own
    assert recopied_date("2025-10-01", text) is None  # another year
    assert recopied_date("2026-10-10", "from 2026-10-01 to 2026-10-05") is None  # two dates
