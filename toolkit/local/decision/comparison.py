"""Which of the looked-up values is larger: computed, for the final-answer step to state. Pure.

"Did the shop sell more in January or in February?" answered by ``get_monthly_sales`` with 120
and 95: the small model reads both results and answers "more in February" about as often as
not — ordering two numbers is a step it gets wrong, like arithmetic. So the ordering is not
left to it: when the question asks a comparison (a comparative or superlative word it
recognises: "higher", "colder", "更长", "最便宜", "卖得少") and this turn's results are one
tool's answers for different values of one argument (or records of several tools, each looked
up by its one name under the same parameter: a sundial maker's and a cork factory's), each
stating one number (or, in a record of several, one of the quantity the word is about: the
price of "cheaper", the year of "最早", the year founded of "older", which the earlier year
is, :func:`labelled_numbers`), the sentence
that compares them is written here (:func:`comparison`): "January (120) is more than February
(95)." The final-answer step shows it under the results
(:func:`~toolkit.local.decision.prompt.answer_messages`); the model still writes the answer.

Nothing is said when the question asks no comparison the word lists know, when the results
that state numbers come from several tools called otherwise (a later step combined them: the
difference asked for is a result of its own) or when two values tie.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from toolkit.local.decision.asking import asked_order
from toolkit.local.decision.numbers import said_numbers
from toolkit.local.decision.records import (
    RATE_WORDS,
    asked_number,
    label_words,
    labelled_numbers,
    name_words,
)
from toolkit.local.decision.turn import failed, last_question, turn_start
from toolkit.wire import content_text

__all__ = [
    "compared_entries",
    "comparison",
]

#: The words of a record's labels and units that each comparison word is about (the price of
#: "cheaper", the year of "earlier"), for a result that states several numbers. A word
#: not listed ("more", "多") compares a label the question itself names.
_QUANTITIES = {
    "price": "price prices cost costs fare fares fee fees yuan dollar dollars usd rmb eur 元 块",
    "time": "year years date published publication founded built opened released since",
    "length": "length long km kilometres kilometers miles minutes hours duration pages",
    "height": "height tall elevation altitude metres meters score points",
    "size": "area size capacity population seats places volume",
    "temperature": "temperature temp degrees °c",
    "weight": "weight kg kilograms grams pounds lb 斤 公斤 克",
    "age": "age 岁",
    "speed": "speed km/h mph",
    "distance": "distance km kilometres kilometers miles",
    "depth": "depth deep metres meters",
    "width": "width wide metres meters",
}
_ABOUT = {
    "price": "贵 便宜 costlier pricier cheaper costliest priciest cheapest richer poorer 富 穷",
    "time": "早 晚 迟 earlier sooner later newer earliest soonest latest newest",
    "length": "长 久 短 longer shorter longest shortest",
    "height": "高 低 higher taller lower highest tallest lowest",
    "size": "大 小 bigger larger smaller biggest largest smallest busier busiest",
    "temperature": "暖和 暖 热 冷 凉快 凉 warmer hotter colder cooler "
    "warmest hottest coldest coolest",
    "weight": "重 轻 heavier lighter heaviest lightest",
    "age": "老 年轻 older younger oldest youngest",
    "speed": "快 慢 faster slower fastest slowest quicker quickest",
    "distance": "远 近 farther further closer nearer farthest furthest closest nearest",
    "depth": "深 浅 deeper shallower deepest shallowest",
    "width": "宽 窄 wider narrower widest narrowest",
}
_LABELS = {
    word: set(_QUANTITIES[quantity].split())
    for quantity, words in _ABOUT.items()
    for word in words.split()
}
#: The comparison words of speed ("faster", "快"), whose order a time taken inverts.
_SPEED = frozenset(_ABOUT["speed"].split())
#: The comparison words of age ("older", "老"), whose order a year founded inverts.
_AGE = frozenset(_ABOUT["age"].split())
#: The words of a label that make its number the year a thing began: the older began earlier.
_DATING = frozenset(
    "founded built opened established started since year 建 成立 创立 创办 开业 开馆 年份".split()
)
#: The comparison words whose numbers are dates or ages, not rates over time
#: (:data:`~toolkit.local.decision.records.RATE_WORDS`: "clocks per year").
_DATED = frozenset({*_ABOUT["time"].split(), *_ABOUT["age"].split()})
#: The words of a label or unit that make its number a time taken: the faster takes less
#: (a Chinese label's characters: 分钟, 小时, 秒).
_DURATION = frozenset(
    "minutes minute mins min hours hour hrs seconds secs duration 钟 时 秒".split()
)


def _compared_number(
    result: str,
    word: str,
    question: str,
    reading: str | None = None,
    ignore: Iterable[str] = (),
    picked: Callable[[str], str | None] | None = None,
) -> str | None:
    """The one number of a result that the comparison word is about: the result's only
    number, or the only one whose label is of the word's quantity ("cheaper": a price, a
    fare, yuan; "最早": a year, a date) — or, for a word of no one quantity ("more", "多"),
    whose label the question names; else the one under the label ``picked`` gives as the
    question's field (:mod:`~toolkit.local.decision.fields`), else the one the question's
    English ``reading`` names by its label
    (:func:`~toolkit.local.decision.records.asked_number`: "workers" of "which has the fewest
    workers?" read from "哪家的工人最少？")."""
    numbers = said_numbers(result)
    if len(numbers) == 1:
        return numbers[0]
    adjective = _adjective(word)
    wanted = _LABELS.get(adjective)
    if wanted is None:
        wanted = {w for w in label_words(question) if len(w) >= 4}
    labelled = labelled_numbers(result)
    if adjective in _DATED:  # "clocks per year" is a rate, no date
        labelled = [(words, n) for words, n in labelled if not words & RATE_WORDS]
    found = [n for words, n in labelled if words & wanted]
    if not found and adjective in _SPEED:  # "faster" over a time taken
        found = [n for words, n in labelled if words & _DURATION]
    if not found and adjective in _AGE:  # "older" over the years things were founded
        found = [n for words, n in labelled if words & _DATING]
    if len(found) == 1:
        return found[0]
    if picked is not None and (number := picked(result)) is not None:
        return number
    return asked_number(result, reading, ignore) if reading else None


def _adjective(word: str) -> str:
    """A comparison word without the mark a Chinese one is asked with ("更快" → "快")."""
    return word[1:] if word[:1] in "更最较得" else word


def _time_taken(result: str, number: str) -> bool:
    """Whether a record's number is a time taken: its label or unit says minutes, hours,
    days ("response_minutes: 14", "14 分钟")."""
    return _labelled_by(result, number, _DURATION)


def _labelled_by(result: str, number: str, words: frozenset[str]) -> bool:
    """Whether a record's number stands under one label that holds one of the words."""
    labels = [said for said, n in labelled_numbers(result) if n == number]
    return len(labels) == 1 and bool(labels[0] & words)


def _looked_up(messages: Sequence[Mapping[str, Any]]) -> list[tuple[str, dict, str]]:
    """This turn's successful calls with their results: ``(tool, arguments, result)``."""
    turn = messages[turn_start(messages) + 1 :]
    answers = {
        m.get("tool_call_id"): content_text(m.get("content")).strip()
        for m in turn
        if m.get("role") == "tool" and not failed(m)
    }
    found = []
    for message in turn:
        for call in message.get("tool_calls") or []:
            result = answers.get(call.get("id"))
            if result is None:
                continue
            function = call.get("function") or {}
            try:
                arguments = json.loads(function.get("arguments") or "{}")
            except ValueError:
                continue
            if isinstance(arguments, dict):
                found.append((str(function.get("name")), arguments, result))
    return found


def compared_entries(
    messages: Sequence[Mapping[str, Any]],
    reading: str | None = None,
    picked: Callable[[str], str | None] | None = None,
) -> list[tuple[float, str, str]] | None:
    """This turn's looked-up values the question compares, in the order it asks for (the
    larger first for "longer", "更多"): ``(value, name, number as written)`` each; ``None``
    when there is nothing to compare, or a tie (see the module docstring; the arguments as
    for :func:`comparison`)."""
    question = last_question(messages)
    order = asked_order(question)
    # A result without a number (a birthplace looked up on the side) compares nothing.
    found = [f for f in _looked_up(messages) if said_numbers(f[2])]
    if order is None or len(found) < 2:
        return None
    several = len({tool for tool, _, _ in found}) != 1
    if several and (
        len({tuple(a) for _, a, _ in found}) != 1 or any(len(a) != 1 for _, a, _ in found)
    ):
        return None  # records of several tools: only each looked up by its one name, alike
    keys = {k for _, arguments, _ in found for k in arguments}
    varying = [k for k in keys if len({json.dumps(a.get(k)) for _, a, _ in found}) > 1]
    if len(varying) != 1:
        return None
    word, larger, _ = order
    ignore = {w for tool, _, _ in found for w in name_words(tool)}  # "salt works" names no label
    entries, times, dates = [], [], []
    for _, arguments, result in found:
        number = _compared_number(result, word, question, reading, ignore, picked)
        name = arguments.get(varying[0])
        if number is None or not isinstance(name, str):
            return None
        entries.append((float(number), name, number))
        times.append(_time_taken(result, number))
        dates.append(_labelled_by(result, number, _DATING))
    if _adjective(word) in _SPEED and all(times):
        larger = not larger  # "faster" over response minutes: the fewer minutes
    if _adjective(word) in _AGE and all(dates):
        larger = not larger  # "older" over the years founded: the earlier year
    entries.sort(key=lambda e: e[0], reverse=larger)
    return None if entries[0][0] == entries[1][0] else entries


def comparison(
    messages: Sequence[Mapping[str, Any]],
    reading: str | None = None,
    picked: Callable[[str], str | None] | None = None,
) -> str | None:
    """The sentence comparing this turn's looked-up values, in the question's language.

    Args:
        messages: OpenAI messages.
        reading: The question in English, for a record's label the question names in
            another language.
        picked: Gives the number under the label the model picks as the field of a question
            in another language (:meth:`~toolkit.local.decision.fields.FieldReader.
            picked_number`), tried before the reading.

    Returns:
        "Comparison: Mont Blanc (4806) is higher than Mount Fuji (3776)." or
        "比较：长江（6300）比黄河（5464）更长。"; ``None`` when there is nothing to compare
        (see the module docstring).
    """
    entries = compared_entries(messages, reading, picked)
    if entries is None:
        return None
    question = last_question(messages)
    word, _, superlative = asked_order(question) or ("", True, False)
    (_, first, value), rest = entries[0], entries[1:]
    if any("\u4e00" <= ch <= "\u9fff" for ch in question):
        others = "、".join(f"{name}（{n}）" for _, name, n in rest)
        if superlative:
            return f"比较：{first}（{value}）{word}；其余：{others}。"
        return f"比较：{first}（{value}）比{others}{word}。"
    others = " and ".join(f"{name} ({n})" for _, name, n in rest)
    if superlative:
        return f"Comparison: {first} ({value}) is the {word}, ahead of {others}."
    return f"Comparison: {first} ({value}) is {word} than {others}."
