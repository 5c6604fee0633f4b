"""The clause a chain's next step is asked in, and the factors words state (decision.clauses,
decision.numbers)."""

from __future__ import annotations

import pytest

from toolkit.local.decision.clauses import clause_ends, step_prefix
from toolkit.local.decision.numbers import (
    first_stated,
    known_numbers,
    stated_times,
    word_numbers,
)


def _all(question: str) -> list[float]:
    return sorted(known_numbers(question.casefold()))


@pytest.mark.parametrize(
    ("question", "prefix"),
    [
        ("帮我算一下：128 加 76，然后把结果除以 4，等于多少？", "帮我算一下：128 加 76，"),
        ("Take 36 times 7, subtract 58 from that, and then halve it.", "Take 36 times 7,"),
        (
            "My parcel SF1029384756 is stuck. Which hub is it at?",
            "My parcel SF1029384756 is stuck.",
        ),
        ("Convert 26.2 miles to kilometers.", None),  # a decimal point ends no clause
        ("北京和西安的气温的总和是多少？", None),  # no number
        ("What is 3 + 4?", None),  # one clause
        ("What is 3 + 4? ", None),
    ],
)
def test_the_first_steps_clause(question, prefix):
    assert step_prefix(question, _all(question)) == prefix


def test_a_later_steps_clause_is_the_one_stating_the_first_waiting_number():
    question = "Divide 144 by 12, add 7 to that, then multiply the result by 3."
    assert step_prefix(question, [7.0, 3.0]) == "Divide 144 by 12, add 7 to that,"
    assert step_prefix(question, [3.0]) is None  # the last clause: the whole question
    assert step_prefix(question, []) is None
    assert clause_ends("a, b。c") == [2, 5]


def test_factors_written_as_words():
    assert word_numbers("Take 36 times 7, then halve the result.") == [(22, 2.0)]
    assert [v for _, v in word_numbers("twice, thrice, doubled, tripled")] == [2, 3, 2, 3]
    assert [v for _, v in word_numbers("取一半，再变成原来的三倍，然后翻倍")] == [2, 3, 2]
    # only as verbs before what they scale: a double room and a half hour state no factor
    assert word_numbers("a double room for half an hour, the two cities") == []
    assert word_numbers("double the price, triple it") == [(0, 2.0), (18, 3.0)]
    # a rate per hundred states the hundred it divides by ("每百分" is a percentage's)
    assert [v for _, v in word_numbers("每百公里耗油28升")] == [100.0]
    assert word_numbers("每百分之一") == []
    assert 2.0 in known_numbers("halve 36")
    assert 2.0 not in known_numbers("halve 36", words=False)
    assert stated_times(2, "halve 2") == 2
    assert first_stated(2, "36, then halve it") == 9
