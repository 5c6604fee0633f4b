"""The numbers a conversation states and the numbers a call uses. Pure.

A call may use a number only when the question or a tool result stated it
(:func:`known_numbers`, :func:`ungrounded_numbers`); a final answer may state only those
(:func:`stated_numbers`). Numbers are compared as numbers: "$20,000" states 20000, "5%" states
5 and 0.05. A word that multiplies or divides states its factor (:func:`word_numbers`): "halve
the result" and "一半" state 2, "triple it" and "三倍" 3 — an operand of the step it asks for.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import cn2an
from text_to_num import alpha2digit

__all__ = [
    "chinese_numbers",
    "counted_numbers",
    "is_number",
    "known_numbers",
    "leaves",
    "lone_number",
    "magnitude",
    "number_spellings",
    "numbers_for_calls",
    "numbers_of",
    "result_numbers",
    "result_text",
    "run_together",
    "said_numbers",
    "signs_restored",
    "spelled_numbers",
    "stated_numbers",
    "stated_times",
    "ungrounded_numbers",
    "ungrouped",
    "whole_spelling",
    "with_roundings",
    "word_numbers",
    "written_numbers",
]


def leaves(value: Any) -> Iterator[Any]:
    """The scalar values inside a JSON value (objects' values and arrays' items, nested).

    Args:
        value: Any JSON value.

    Yields:
        Each string, number or boolean (``None`` is left out).
    """
    if isinstance(value, Mapping):
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from leaves(item)
    elif value is not None:
        yield value


def is_number(value: Any) -> bool:
    """Whether a JSON value is a number (booleans are not).

    Args:
        value: Any JSON value.

    Returns:
        True for an int or a float.
    """
    return isinstance(value, (int, float)) and not isinstance(value, bool)


#: Words that state a factor, each with its value. Only words that scale a quantity count, and
#: "double" and "triple" only as verbs before what they scale ("double the result", not "a
#: double room"): a cardinal word ("the two cities") is no operand a call should use.
_SCALED = r"(?= (?:the|that|it|this|them|those|these|its|his|her|their|my|your|our)\b)"
_FACTOR_WORDS: tuple[tuple[str, float], ...] = (
    (r"\bhalv(?:e|ed|es|ing)\b|\bhalf of\b|\bin half\b|\bby half\b", 2.0),
    (r"\btwice\b|\bdoubl(?:ed|ing)\b|\bdouble" + _SCALED, 2.0),
    (r"\bthrice\b|\btripl(?:ed|ing)\b|\btriple" + _SCALED, 3.0),
    (r"\bquadrupl(?:ed|ing)\b|\bquadruple(?= (?:the|that|it|this)\b)", 4.0),
    ("一半|减半|对半|折半|翻倍|翻一番|[两二双]倍", 2.0),
    ("翻两番|四倍", 4.0),
    ("三倍", 3.0),
    ("五倍", 5.0),
    ("十倍", 10.0),
    ("每百(?![分万])", 100.0),  # "每百公里耗油28升": a rate per hundred
)
_FACTOR = [(re.compile(pattern, re.IGNORECASE), value) for pattern, value in _FACTOR_WORDS]


def word_numbers(text: str) -> list[tuple[int, float]]:
    """The factors a text states in words ("halve it", "twice", "一半", "三倍").

    Args:
        text: A question or a tool result.

    Returns:
        ``(position, value)`` of each, in the text's order.
    """
    found = [(m.start(), value) for pattern, value in _FACTOR for m in pattern.finditer(text)]
    return sorted(found)


#: A number written in text (signs are left off: "-15 °C" grounds 15 and -15).
_NUMBER = re.compile(r"(?<![\d.])\d+(?:\.\d+)?(?!\d)")
#: A number written with thousands separators ("$20,000", "1,250,000.5").
_GROUPED = re.compile(r"(?<![\d.])(?<!\d,)\d{1,3}(?:,\d{3})+(?:\.\d+)?(?!\d|,\d)")


@functools.lru_cache(maxsize=16)
def known_numbers(text: str, *, words: bool = True) -> frozenset[float]:
    """The numbers a text states, so that a call may use them.

    Each number counts as written and, when followed by ``%``, as a fraction too ("5%" grounds
    5 and 0.05); one written with thousands separators counts whole ("$20,000" grounds 20000)
    as well as by its parts; a factor written as a word counts too ("halve" grounds 2:
    :func:`word_numbers`). The conversation's text is asked about once per streamed value,
    so the last few answers are kept.

    Args:
        text: The conversation's text (:func:`~toolkit.local.decision.grounding.conversation_text`).
        words: Whether factors written as words count.

    Returns:
        The numbers, as floats.
    """
    found: set[float] = set()
    for match in _NUMBER.finditer(text):
        value = float(match.group())
        found.add(value)
        if text[match.end() : match.end() + 1] == "%":
            found.add(round(value / 100, 12))
    found.update(float(match.group().replace(",", "")) for match in _GROUPED.finditer(text))
    if words:
        found.update(value for _, value in word_numbers(text))
    return frozenset(found)


#: A number with a scale word after it ("$1.2 million", "3 thousand"), or an amount of money
#: with a scale letter ("$1M", "€5k", "$2bn"; texts are compared case aside, and "5 m" is
#: five metres).
_SCALED_NUMBER = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?)\s*(thousand|million|billion|trillion)\b"
    r"|(?<=[$€£¥])\s?(\d+(?:\.\d+)?)\s*(k|m|bn|b)\b",
    re.IGNORECASE,
)
_SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9}
_SCALES |= {"b": 1e9, "trillion": 1e12}
#: A number in scientific notation ("1e-9", "6.02E23").
_EXPONENT = re.compile(r"(?<![\w.])\d+(?:\.\d+)?[eE][-+]?\d+(?![\w.])")
#: One of a unit of time ("next week", "a month", "per hour"), and what it makes in the
#: smaller units a parameter may count in ("a week" is 7 days, 168 hours).
_ONE_OF = r"\b(?:a|an|one|next|this|last|per|each|every|the coming|the past)\s+"
_TIME_UNITS: tuple[tuple[str, tuple[float, ...]], ...] = (
    ("minute", (1, 60)),
    ("hour", (1, 60, 3600)),
    ("day", (1, 24)),
    ("week", (1, 7, 168)),
    ("fortnight", (1, 2, 14)),
    ("month", (1,)),
    ("quarter", (1, 3)),
    ("year", (1, 12, 52, 365)),
    ("decade", (1, 10)),
    ("century", (1, 100)),
)
_ONE_TIME_UNIT = [
    (re.compile(_ONE_OF + unit + r"\b", re.IGNORECASE), values) for unit, values in _TIME_UNITS
]
#: An idiom that states zero: "starts from rest", "at rest".
_AT_REST = re.compile(r"\b(?:from|at) rest\b", re.IGNORECASE)
#: The languages whose number words are read; "one" and "two" alone are not read (in most of
#: them "one" is "a" too, and "the two cities" asks for no value 2), nor ordinals ("the first
#: equation").
_WORD_LANGUAGES = ("en", "es", "fr", "de", "it", "pt", "nl")
#: A number as the word reader writes it, not an ordinal ("1st", "2º").
_READ_NUMBER = re.compile(r"(?<![\d.])\d+(?:\.\d+)?(?![\d]|st\b|nd\b|rd\b|th\b|[ºª°]|er\b|e\b)")


@functools.lru_cache(maxsize=16)
def numbers_for_calls(text: str, counts: bool = False) -> frozenset[float]:
    """The numbers a text states for a call's value: :func:`known_numbers`, and those it
    writes in words ("three hours", "twenty-one", "cinco días"), with a scale ("$1.2 million"
    and "$1.2M" state 1200000), in scientific notation ("1e-9"), as one of a unit of time
    ("next week" states 1 week, 7 days, 168 hours) or as the idiom "from rest" (0). Not for
    arithmetic: "the two cities" states no operand, but ``hours=3`` for "three hours" is
    the user's.

    Args:
        text: The conversation's text.
        counts: Read "one" and "two" too where they count something
            (:func:`counted_numbers`: "for two adults and one child").

    Returns:
        The numbers, as floats.
    """
    found = set(known_numbers(text))
    if counts:
        found.update(counted_numbers(text))
    for match in _SCALED_NUMBER.finditer(text):
        number, scale = match.group(1) or match.group(3), match.group(2) or match.group(4)
        found.add(round(float(number) * _SCALES[scale.casefold()], 6))
    found.update(float(match.group()) for match in _EXPONENT.finditer(text))
    for pattern, values in _ONE_TIME_UNIT:
        if pattern.search(text):
            found.update(float(v) for v in values)
    if _AT_REST.search(text):
        found.add(0.0)
    return frozenset(found | spelled_numbers(text))


@functools.lru_cache(maxsize=16)
def spelled_numbers(text: str) -> frozenset[float]:
    """The numbers a text writes in words ("four friends", "twenty-one", "cinco días"; not
    "one" and "two" alone, which are "a" and "the two cities" as often as numbers), with the
    numbers it writes in digits.

    Args:
        text: Any text.

    Returns:
        The numbers, as floats.
    """
    found: set[float] = set()
    for language in _WORD_LANGUAGES:
        spelled = alpha2digit(text, language)
        if spelled != text:
            found.update(float(m.group()) for m in _READ_NUMBER.finditer(spelled))
    return frozenset(found | set(chinese_numbers(text)))


#: "one" or "two" before the word of what it counts ("two nights", "one child", "two-bedroom").
_ONE_OR_TWO = re.compile(r"(?<![\w'’-])(one|two)(?=[ \t-]+([A-Za-z][\w'’-]*))", re.IGNORECASE)
#: Words before "one" or "two" that make it no count of the user's: it points at things the
#: text names ("the two cities", "which one", "no one", "each one").
_POINTING = frozenset(
    "the these those both which that this each every no any either neither other".split()
)
#: Words after "one" or "two" that are no counted thing: "one of", "one or two", "one more",
#: "one another", "one way to", "one can", "two is", "one we like".
_NOT_COUNTED = frozenset(
    (
        "of or and nor more another way by to at in on into is are was were be been with for "
        "from than as if so but that which who whom whose the a an can could should would will "
        "must may might has have had does do did around near about within after before each "
        "here there then i we you he she it they"
    ).split()
)


#: Two numbers listed together ("40 and 50", "5C and 7C"; not a date's "July 10, 2022").
_LISTED = re.compile(r"\d[^\s,]*\s*(?:and|&)\s*[$€£]?\d")


def counted_numbers(text: str) -> list[float]:
    """The 1s and 2s an English text writes as "one" and "two" before what they count ("book
    two nights for two adults and one child", "a two-bedroom flat"), which :func:`spelled_numbers`
    leaves out: not after a word that points at things named ("the two cities", "which one"),
    nor before a word that is no counted thing ("one of them", "one more", "one can"), nor
    when the clause goes on to list that many numbers ("two numbers: 40 and 50").

    Args:
        text: Any text.

    Returns:
        The numbers, in the text's order.
    """
    found: list[float] = []
    for match in _ONE_OR_TWO.finditer(text):
        before = re.findall(r"[A-Za-z]+", text[max(0, match.start() - 20) : match.start()])
        if before and before[-1].casefold() in _POINTING:
            continue
        if match.group(2).casefold() in _NOT_COUNTED:
            continue
        clause = re.split(r"[.?!;\n]", text[match.end() : match.end() + 60])[0]
        if _LISTED.search(clause):
            continue  # "two numbers: 40 and 50" counts the values it lists
        found.append(1.0 if match.group(1).casefold() == "one" else 2.0)
    return found


#: A Chinese numeral before what it counts ("三个小时", "一百二十五只", "两周"), not an
#: ordinal ("第三次").
_CHINESE_NUMERAL = re.compile(
    r"(?<![第零一二两三四五六七八九十百千万])([零一二两三四五六七八九十百千万]+(?:点[零一二三四五六七八九]+)?)"
    r"(?=[个只张位名条家座台辆艘本件次天周年岁日晚夜口人斤克升米元块层趟遍轮批箱瓶杯碗份套间所]"
    r"|小时|钟头|星期|分钟|秒|公里|公斤|千克|毫升)"
)
#: What "两" or "二" alone counts when it is a quantity to work with (two hours, two weeks,
#: twice): "两家酒厂", "the two breweries", asks for no value 2.
_TWO_OF_TIME = re.compile(r"(?:个)?(?:小时|钟头|星期|分钟|秒|天|周|年|月|日|晚|夜|次|趟|遍|轮)")


def _per_each(text: str, at: int) -> bool:
    """Whether the clause before ``at`` says "each" (每): "每辆车要配两名司机" counts two
    drivers a car."""
    clause = re.split(r"[，。？！；：,.?!;:]", text[:at])[-1]
    return "每" in clause


def chinese_numbers(text: str) -> list[float]:
    """The numbers a Chinese text writes in numerals before what they count ("三个小时" 3,
    "一百二十五只" 125, "两周" 2). "一" alone is "a" ("一家锻坊"), and "两" or "二" alone counts
    only time or times ("两周", "两次") or so many of each ("每辆车要配两名司机"), not things
    ("两家酒厂").

    Args:
        text: Any text.

    Returns:
        The numbers, in the text's order.
    """
    found: list[float] = []
    for match in _CHINESE_NUMERAL.finditer(text):
        numeral = match.group(1)
        if numeral == "一":
            continue
        if numeral in ("两", "二") and not (
            _TWO_OF_TIME.match(text, match.end()) or _per_each(text, match.start())
        ):
            continue
        try:
            found.append(float(cn2an.cn2an(numeral, "smart")))
        except ValueError:  # no numeral the reader knows ("十十")
            continue
    return found


def run_together(value: Any, text: str) -> bool:
    """Whether a number is two or more of the text's numbers written one after another.

    Asked "the factorial of 5,10 and 15", the small model writes ``factorial(510)``; for "a
    term of 15, 20 and 30 years", ``loan_term=1520``: the list's first numbers run together.

    Args:
        value: A call's number.
        text: The conversation's text.

    Returns:
        True when the number's digits are the digits of consecutive numbers of the text.
    """
    if not is_number(value) or not float(value).is_integer() or value < 0:
        return False
    digits = str(int(value))
    written = [m.group() for m in _NUMBER.finditer(text) if "." not in m.group()]
    for start in range(len(written)):
        joined = written[start]
        for following in written[start + 1 :]:
            joined += following
            if joined == digits:
                return True
            if len(joined) >= len(digits):
                break
    return False


def number_spellings(text: str) -> list[str]:
    """:func:`known_numbers` as a call writes them in JSON ("$400,000" → ``400000``, "4%" →
    ``4`` and ``0.04``).

    Args:
        text: The conversation's text.

    Returns:
        The spellings, smallest number first.
    """
    return [str(int(n)) if n.is_integer() else repr(n) for n in sorted(known_numbers(text))]


#: A number as written, with its sign when it has one ("-15", not the "-11" of "2026-11-15").
_WRITTEN_NUMBER = re.compile(r"(?<![0-9A-Za-z_.])-?\d+(?:\.\d+)?|\d+(?:\.\d+)?")


def written_numbers(text: str) -> list[str]:
    """Every number a text writes, as written, with its sign when it has one, in order.

    Args:
        text: A question or a tool result.

    Returns:
        The numbers' spellings ("2026-11-24" writes "2026", "11", "24"; "-15 °C" writes "-15").
    """
    return _WRITTEN_NUMBER.findall(text)


#: The longest result read as the one number it states beside a label ("Each part: 9.6").
LABELLED_RESULT = 40
#: A number standing on its own in a text, with its sign (not the "2" of "B2" or "2.5.1").
_LONE = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")


def lone_number(text: str, longest: int | None = LABELLED_RESULT) -> str | None:
    """The one number a short text states, as written ("Each part: 9.6" → "9.6",
    "quotient: 120" → "120").

    Args:
        text: A tool result.
        longest: The most characters the text may have (``None``: any).

    Returns:
        The number; ``None`` when the text states none or several, or is longer.
    """
    numbers = _LONE.findall(text)
    if len(numbers) != 1 or (longest is not None and len(text) > longest):
        return None
    return numbers[0]


def result_text(result: str) -> str:
    """A tool result with its thousands separators taken out of its numbers ("output 2,400
    litres" → "output 2400 litres"), so that a number so written is read whole.

    A question's "5,10" may list two numbers; a result written as text groups digits the way
    a record is printed. A JSON result is left as it is: its numbers carry no separators.

    Args:
        result: A tool result.

    Returns:
        The result, its grouped numbers written whole.
    """
    try:
        json.loads(result)
    except ValueError:
        return _GROUPED.sub(lambda m: m.group().replace(",", ""), result)
    return result


def result_numbers(result: str) -> list[str]:
    """Every number a tool result writes, as :func:`written_numbers` reads it, a number
    written with thousands separators read whole (:func:`result_text`).

    Args:
        result: A tool result.

    Returns:
        The numbers' spellings, in order.
    """
    return written_numbers(result_text(result))


def stated_times(number: float, text: str) -> int:
    """How many times a text writes a number ("1,200" writes 1200; "halve" writes 2; signs
    are not read).

    Args:
        number: The number, positive.
        text: The question.

    Returns:
        The count.
    """
    plain = re.sub(r"(?<=\d),(?=\d{3})", "", text)
    words = sum(value == number for _, value in word_numbers(text))
    return words + sum(float(m.group()) == number for m in _NUMBER.finditer(plain))


def first_stated(number: float, text: str) -> int:
    """Where a text first writes a number, as :func:`known_numbers` reads it (the text's
    length when it does not).

    Args:
        number: The number, positive.
        text: The question.

    Returns:
        The position.
    """
    digits = (m.start() for m in _NUMBER.finditer(text) if float(m.group()) == number)
    words = (at for at, value in word_numbers(text) if value == number)
    return min([*digits, *words], default=len(text))


def plain_number(value: float) -> int | float:
    """A number as a call writes it: ``84`` for 84.0, ``2.5`` as it is."""
    return int(value) if float(value).is_integer() else value


def stated_numbers(texts: Sequence[str]) -> list[str]:
    """Every number the texts state, as written, each once; a signed one also without its sign
    ("-15 °C" may be said "零下15度", 15 below zero).

    Args:
        texts: The question and the tool results an answer rests on.

    Returns:
        The numbers' spellings, in first-seen order.
    """
    found = [n for t in texts for n in written_numbers(t)]
    return list(dict.fromkeys(n for written in found for n in (written, written.lstrip("-"))))


def ungrouped(text: str) -> str:
    """The text with thousands separators taken out of its numbers ("1,250" → "1250").

    Args:
        text: A question.

    Returns:
        The text, its grouped numbers written whole.
    """
    return re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)


def with_roundings(spellings: Sequence[str]) -> list[str]:
    """Numbers' spellings, each followed by its roundings to two and one decimals when it has
    more ("13.333333333333334" may be said "13.33" or "13.3"; a tool's float is seldom read
    out whole), and a whole number written with a decimal point by its whole spelling ("84"
    for "84.0": a tool typed ``float`` returns 14 × 6 so, and a sentence says "84 moulds").

    Args:
        spellings: Numbers as written.

    Returns:
        The spellings and their roundings, each once.
    """
    out: list[str] = []
    for written in spellings:
        out.append(written)
        decimals = written.partition(".")[2]
        out += [f"{float(written):.{n}f}" for n in (2, 1) if len(decimals) > n]
        whole = whole_spelling(written)
        if whole is not None:
            out.append(whole)
    return list(dict.fromkeys(out))


def whole_spelling(written: str) -> str | None:
    """A number written with a decimal point and only zeros after it, as a whole number:
    "84" for "84.0", "-3" for "-3.00"; ``None`` for any other spelling.

    Args:
        written: A number as written.

    Returns:
        Its whole spelling, or ``None``.
    """
    whole, _, decimals = written.partition(".")
    return whole if decimals and not decimals.strip("0") else None


#: How an answer may say a negative number besides its minus sign ("零下15度", "minus 15").
NEGATIVE_WORDS = ("−", "零下", "负", "minus ")
_SAID_NUMBER = re.compile(
    "(?P<sign>(?<![0-9A-Za-z_.])-|"
    + "|".join(map(re.escape, NEGATIVE_WORDS))
    + r")?(?P<digits>\d+(?:\.\d+)?)"
)


def signs_restored(answer: str, texts: Sequence[str]) -> str:
    """The answer with the minus sign put back where it was lost.

    A small model copies "-15 °C" as "15°C". A number the answer says bare, that the texts
    state only as a negative one (never bare, not even inside a date), gets its sign back.

    Args:
        answer: A text answer written from the texts.
        texts: The question and the tool results it rests on.

    Returns:
        The answer, its lost signs restored.
    """
    said = [n for text in texts for n in said_numbers(text)]
    lost = {n[1:] for n in said if n.startswith("-")} - {n for n in said if n[0] != "-"}
    if not lost:
        return answer
    out, last = [], 0
    for match in _SAID_NUMBER.finditer(answer):
        if match["sign"] is None and match["digits"] in lost:
            out += [answer[last : match.start()], "-", match["digits"]]
            last = match.end()
    return "".join(out) + answer[last:]


def said_numbers(text: str) -> list[str]:
    """The numbers a text answer says, each as ``-15`` when said with any sign or sign word
    ("零下15度", "minus 15", "−15"), else as written.

    Args:
        text: The answer.

    Returns:
        The numbers, in order.
    """
    return [
        ("" if match["sign"] is None else "-") + match["digits"]
        for match in _SAID_NUMBER.finditer(text)
    ]


def magnitude(number: str) -> float:
    """A number as :func:`said_numbers` gives it, without its sign, as a value ("-84.0" and
    "84" are both 84.0).

    Args:
        number: A number's spelling.

    Returns:
        Its absolute value.
    """
    return abs(float(number))


def numbers_of(value: Any) -> Iterator[float]:
    """Every number in a value: numbers, and numbers written inside text (signs left off).

    Args:
        value: Call arguments, or any JSON value.

    Yields:
        Each number, as a float.
    """
    for leaf in leaves(value):
        if isinstance(leaf, bool):
            continue
        if isinstance(leaf, (int, float)):
            yield abs(float(leaf))
        elif isinstance(leaf, str):
            yield from (float(m.group()) for m in _NUMBER.finditer(leaf))


def ungrounded_numbers(arguments: Mapping[str, Any], known: frozenset[float]) -> list[float]:
    """The numbers a call's arguments use that the conversation never stated.

    A small model fills numeric arguments with the examples of a tool's description (``add``
    documented with "e.g. 6" is called as ``add(6, 5)`` before any 6 was looked up), or invents
    a step of arithmetic nobody asked for. Numbers inside text arguments (an expression for a
    calculator) count too.

    Args:
        arguments: The call's arguments.
        known: :func:`known_numbers` of the conversation.

    Returns:
        The ungrounded numbers, in order (empty for a grounded call).
    """
    return [value for value in numbers_of(arguments) if round(value, 12) not in known]
