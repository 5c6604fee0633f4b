"""Units: a word problem's plan adds after the product a count it had multiplied."""

from __future__ import annotations

import pytest

from toolkit.local.decision.units import regrouped


@pytest.mark.parametrize(
    ("expression", "question", "expected"),
    [
        # a rate per what one number counts: that number alone is multiplied
        (
            "(15 + 64) * 28",
            "每桶蜜酒能装 28 瓶，上周一共酿了 15 桶，后来又从仓库调来 64 瓶。现在总共有多少瓶？",
            "15 * 28 + 64",
        ),
        (
            "(45 - 37) * 8",
            "A chandler dips 45 candles an hour through an 8-hour shift. 37 of them come out "
            "cracked. How many good candles does she end up with?",
            "45 * 8 - 37",
        ),
        (
            "36 * (14 + 95)",
            "For 14 days we turned 36 cheese wheels a day, and on Sunday an extra 95. How many?",
            "14 * 36 + 95",
        ),
        # both numbers count what the rate is per ("5" in the clause of "3 hours"): as written
        (
            "(3 + 5) * 45",
            "A pump moves 45 litres an hour, 3 hours in the morning and 5 in the afternoon.",
            None,
        ),
        # neither goes with the third ("每人" is no "个"): as written
        ("(23 + 19) * 3", "一个班有 23 个男生和 19 个女生，每人发 3 支笔，一共要多少支笔？", None),
        ("(12 + 30) * 5 - 10", "What is (12 + 30) * 5 - 10?", None),
        ("not an expression (", "Anything 3 a day for 4 days?", None),
    ],
)
def test_a_count_multiplied_with_a_rate_it_does_not_go_with_is_added_after(
    expression, question, expected
):
    assert regrouped(expression, question) == expected


def test_a_rate_added_to_a_count_of_what_it_is_per_is_a_product() -> None:
    question = "一瓶香水小样卖35元，今天卖出了12瓶，扣掉130元的材料成本后，今天净赚多少元？"
    assert regrouped("(35 - 12) - 130", question) == "35 * 12 - 130"
    assert regrouped("35 * 12 - 130", question) is None
    # 一 that is part of a number, or no measure word, says nothing of a rate
    assert regrouped("21 - 12", "二十一瓶卖了12瓶，还剩几瓶？") is None
    assert regrouped("30 + 12", "一共有30元，又得到12元，现在有多少元？") is None


def test_a_sum_of_two_products_sharing_a_factor_is_read_as_the_product_of_the_sum():
    baker = (
        "A baker makes 40 rolls an hour for a 6-hour shift. 15 of them burn and are thrown "
        "away. How many rolls are left?"
    )
    assert regrouped("(40 * 6) - (15 * 6)", baker) == "40 * 6 - 15"
    assert regrouped("6 * 40 - 6 * 15", baker) == "40 * 6 - 15"
    # both parts counted per the factor: nothing to regroup
    mead = "每桶蜜酒能装 28 瓶，上周酿了 15 桶，这周又酿了 6 桶。现在总共有多少瓶？"
    assert regrouped("15 * 28 + 6 * 28", mead) is None


@pytest.mark.parametrize(
    ("expression", "question", "expected"),
    [
        (  # the shades a crate holds divide the week's shades into crates
            "14 * 6 * 4",
            "A glassblowing studio turns out 14 lamp shades a day and works 6 days a week. How "
            "many shades does it make in a week, and if they're packed 4 to a crate, how many "
            "crates does a week's output fill?",
            "14 * 6 / 4",
        ),
        ("840 * 24", "酿了840瓶果酒，每箱装24瓶，能装满多少箱？", "840 / 24"),
        (  # a count written with a thousands separator is one number
            "3120 * 16",
            "The bindery has 3,120 loose pages to stitch, 16 pages to a booklet. How many "
            "booklets will that give?",
            "3120 / 16",
        ),
        # a count of what the rate is per: the product stands
        ("24 * 35", "每箱装24瓶，一共装了35箱，一共多少瓶？", None),
        ("15 * 4", "There are 15 crates with 4 to a crate. How many shades are there?", None),
    ],
)
def test_a_product_by_a_rate_per_the_asked_unit_is_a_division(
    expression: str, question: str, expected: str | None
) -> None:
    assert regrouped(expression, question) == expected
