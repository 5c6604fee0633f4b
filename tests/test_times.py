"""Times of day: the conversation's times in any spelling ground a call's times, and only those."""

from __future__ import annotations

from toolkit.local.decision.grounding import (
    conversation_text,
    rules_out_extra_call,
    ungrounded_values,
)
from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.times import says_moments, says_times, times_in


def _text(question: str) -> str:
    return conversation_text([{"role": "user", "content": question}])


def test_times_are_read_in_the_spellings_people_write() -> None:
    assert times_in("set an alarm for 11pm") == {(23, 0)}
    assert times_in("at 7:30 p.m. and 9 a.m.") == {(19, 30), (9, 0)}
    assert times_in("12am, 12pm") == {(0, 0), (12, 0)}
    assert times_in("5 in the afternoon, 8 o'clock tonight, 6 in the morning") == {
        (17, 0),
        (20, 0),
        (6, 0),
    }
    assert times_in("available 16:00 - 18:00") == {(16, 0), (18, 0)}
    assert times_in("at noon or at midnight") == {(12, 0), (0, 0)}
    assert times_in("下午5点到晚上八点半，上午10点30分") == {(17, 0), (20, 30), (10, 30)}


def test_a_clock_time_without_am_or_pm_is_read_both_ways_in_the_conversation_only() -> None:
    assert times_in("meet at 3:30") == {(3, 30), (15, 30)}
    assert says_times("15:30", "meet at 3:30") is not None
    assert says_times("3:30 pm", "meet at 3:30") is not None
    assert says_times("15:30", "meet at 15:30") is not None
    assert says_times("3:30", "meet at 15:30") is None  # a call's "3:30" means 3:30


def test_numbers_that_are_no_time_are_not_read_as_one() -> None:
    assert times_in("I have 3 apples and 12 pears") == frozenset()
    assert times_in("room 12 on floor 3, version 2.10") == frozenset()
    assert times_in("a score of 4.5 stars") == frozenset()


def test_a_value_says_the_text_s_times_in_another_spelling() -> None:
    text = "set an alarm for 11pm; 5 in the afternoon"
    for value in ("23:00", "23:00:00", "11:00 pm", "11 PM", "17:00", "5:00 PM"):
        assert says_times(value, text) is not None, value
    for value in ("14:05", "22:00", "11:30 pm", "noon", "no time"):
        assert says_times(value, text) is None, value


def test_a_value_s_dates_and_times_are_checked_together() -> None:
    text = "available on 12/03/2024 16:00 - 18:00"
    assert says_moments("2024-03-12 16:00:00", text) is not None
    assert says_moments("2024-12-03T18:00:00", text) is not None  # day-first too
    assert says_moments("2024-03-13 16:00:00", text) is None  # a day nobody gave
    assert says_moments("2024-03-12 17:00:00", text) is None  # an hour nobody gave
    assert says_moments("2024-03-12", text) is not None  # a date alone
    assert says_moments("Chonburi", text) is None  # neither
    assert (says_moments("2024-03-12 Chonburi", text) or "").split() == ["Chonburi"]


def test_a_call_writing_the_user_s_time_on_a_24_hour_clock_is_grounded() -> None:
    text = _text("Set an Alarm for 11PM reminding me to brush my teeth")
    schema = {
        "type": "object",
        "properties": {"alarm_time": {"type": "string"}, "purpose": {"type": "string"}},
    }
    call = {"alarm_time": "23:00", "purpose": "brush my teeth"}
    assert ungrounded_values(call, schema, text) == []
    assert ungrounded_values({**call, "alarm_time": "11:00 PM"}, schema, text) == []
    assert ungrounded_values({**call, "alarm_time": "22:00"}, schema, text) == [22.0, 0.0]


def test_an_extra_call_at_a_time_nobody_gave_is_ruled_out_and_one_at_a_stated_time_is_not() -> None:
    text = _text("Find showings of Tenet at 5 pm and No Time To Die at 7:30 pm.")
    previous = [{"movie": "Tenet", "time": "17:00"}]
    policy = ToolPolicy()
    assert not rules_out_extra_call("19:30", previous, text, policy)
    assert rules_out_extra_call("21:00", previous, text, policy)
