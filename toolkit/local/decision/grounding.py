"""Is a call grounded in the conversation, or already answered by it? Pure.

The small model, once made to write another call, writes one whatever the request: a copy of
the first, the same values shuffled, or invented values. A genuine extra call (the second city,
the other artist) differs from the calls before it in values the user wrote
(:func:`adds_new_grounded_values`, and :func:`rules_out_extra_call` to stop at the first value
that dooms it). :class:`CallHistory` knows what the conversation's calls and results already
said, so that a redundant call is not executed twice.

A value is *mentioned* in a text when it occurs there as a whole word or number ("m" is not in
"maximum", "1" is not in "15" or "0.1", but "4" and "cm" are in "4cm"; scripts written without
spaces, such as Chinese, match anywhere), or, for a multi-word value, when enough of its words
do (:attr:`~toolkit.local.decision.policy.ToolPolicy.word_share`). A date is mentioned by the
same date in another spelling: a tool's "2022-04-05" by the user's "April 5, 2022"
(:mod:`toolkit.local.decision.dates`).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Collection, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from toolkit.local.decision.numbers import (
    is_number,
    leaves,
    numbers_for_calls,
    result_text,
    stated_times,
    ungrounded_numbers,
)
from toolkit.local.decision.phrases import other_scripts
from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.records import labelled_texts, name_parts, root
from toolkit.local.decision.stated import said_flags
from toolkit.local.decision.times import says_moments
from toolkit.wire import content_text

__all__ = [
    "FUNCTION_WORDS",
    "CallHistory",
    "adds_new_grounded_values",
    "arguments_of",
    "conversation_text",
    "defaults_of",
    "invented_texts",
    "is_error",
    "kind_words",
    "lone_text_parameter",
    "moves_values",
    "needs_unstated_number",
    "occurs",
    "placed_anew",
    "qualifies_earlier",
    "repeats",
    "rules_out_extra_call",
    "text_values",
    "unfounded_options",
    "ungrounded_values",
    "uses_given_values",
    "without_unfounded",
]

_DEFAULT = ToolPolicy()

#: English words that ask for nothing by themselves: what joins the words of a value that do
#: ("Paris to Rome", "the Beatles").
FUNCTION_WORDS = frozenset(
    "a an the and or nor but of to in on at by for from with without into onto over under "
    "than then as is are was were be been it its this that these those via per vs".split()
)


def conversation_text(messages: Sequence[Mapping[str, Any]]) -> str:
    """All message text of a conversation, case-folded (what a call may be grounded in); a
    tool result's numbers written with thousands separators are written whole ("1,200
    riders" states 1200, not 1 and 200: :func:`~toolkit.local.decision.numbers.result_text`).

    Args:
        messages: OpenAI messages.

    Returns:
        The contents joined by newlines.
    """
    return "\n".join(
        result_text(text) if m.get("role") == "tool" else text
        for m in messages
        for text in [content_text(m.get("content"))]
    ).casefold()


def _spelled(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip().casefold()


def occurs(value: str, text: str) -> bool:
    """Whether ``value`` occurs in ``text`` as a whole word or number.

    An end of the value that is a Latin letter or a digit must not touch another one ("m" is
    not in "maximum", "1" is not in "15" or "0.1", but "4" is in "4cm"), except for a plural
    ending ("banana" is in "bananas") and a number before a word ("cm" is in "4cm"); scripts
    written without spaces (Chinese, Japanese) match anywhere.

    Args:
        value: The word or number, case-folded as ``text`` is.
        text: The text searched (say :func:`conversation_text`).

    Returns:
        True when it occurs.
    """
    return bool(value) and re.search(_whole(value), text) is not None


def _whole(value: str) -> str:
    """The pattern of ``value`` (not empty) as a whole word or number: :func:`occurs`."""
    pattern = _EDGE_BEFORE.get(_edge(value[0]), "")
    return pattern + re.escape(value) + _EDGE_AFTER.get(_edge(value[-1]), "")


def _times_stated(value: Any, text: str) -> int:
    """How many times ``text`` (case-folded) writes a value: a number as a number (signs are
    not read), else as a whole word or phrase (:func:`occurs`)."""
    if is_number(value):
        return stated_times(abs(float(value)), text)
    spelled = _spelled(value)
    return len(re.findall(_whole(spelled), text)) if spelled else 0


def _edge(char: str) -> str:
    if char.isdigit():
        return "digit"
    return "latin" if char.isascii() and char.isalnum() else "other"


#: Before a word a number may stand ("cm" is mentioned by "5cm").
_EDGE_BEFORE = {"digit": r"(?<![0-9.])", "latin": r"(?<![A-Za-z])"}
#: After a word a plural ending may follow ("banana" is mentioned by "bananas").
_EDGE_AFTER = {"digit": r"(?![0-9]|\.[0-9])", "latin": r"(?:e?s)?(?![A-Za-z0-9])"}


def _mentioned(
    value: str, text: str, share: float, kind: Collection[str] = (), kin: bool = False
) -> bool:
    """Whether the text says the value whole, or ``share`` of its words; a value of words and
    numbers, every number in it too ("sculpture1" is not said by "a sculpture of 3 feet": the 1
    is the model's); a date or a time of day the text states, in any spelling ("2022-04-05"
    is said by "April 5, 2022", "23:00" by "11PM",
    :func:`~toolkit.local.decision.times.says_moments`). The words of the value's
    ``kind`` (its parameter's name) count only in a value of nothing else: every observatory's
    name holds "observatory", so "Saltmarsh Observatory" is not said by "the Kestrel Peak
    Observatory". With ``kin``, a word is said by a word of its family too (:func:`_kin_said`)."""
    if occurs(value, text):
        return True
    rest = says_moments(value, text)
    if rest is not None:  # "2022-04-05" for "April 5, 2022": its words are what else it says
        return not _words(rest) or _mentioned(rest.strip(), text, share, kind, kin)
    words = _words(value)
    numbers = [w for w in words if w[0].isdigit()]
    if not words or (len(numbers) < len(words) and not all(occurs(n, text) for n in numbers)):
        return False
    own = [w for w in words if w not in kind and w.removesuffix("s") not in kind]
    words = own or words
    return sum(_said(word, text, kin) for word in words) >= share * len(words)


#: The shortest beginning two words share to be of one family, and the share of the shorter
#: word it must cover: "cardiolog" of "cardiology" and "cardiologist".
_KIN_PREFIX = 7
_KIN_SHARE = 0.8


def _kin_said(word: str, text: str) -> bool:
    """Whether the text says a word of the word's family: the two begin alike for at least
    :data:`_KIN_PREFIX` letters and :data:`_KIN_SHARE` of the shorter ("Cardiology" for "a
    cardiologist", "photography" for "a photographer"; not "internet" for "international",
    nor "considerable" for "consideration")."""
    if len(word) < _KIN_PREFIX or not (word.isascii() and word.isalpha()):
        return False
    for other in set(re.findall(rf"[a-z]{{{_KIN_PREFIX},}}", text)):
        shared = next(
            (i for i, (a, b) in enumerate(zip(word, other, strict=False)) if a != b),
            min(len(word), len(other)),
        )
        if shared >= _KIN_PREFIX and shared >= _KIN_SHARE * min(len(word), len(other)):
            return True
    return False


def _said(word: str, text: str, kin: bool = False) -> bool:
    """Whether the text says a word (:func:`occurs`), or with ``kin`` one of its family."""
    return occurs(word, text) or (kin and _kin_said(word, text))


def _given(
    value: Any,
    text: str,
    share: float,
    kind: Collection[str] = (),
    kin: bool = False,
    counts: bool = False,
) -> bool:
    """Whether the text gives a value: a number as a number ("$10,000" gives 10000; with
    ``counts``, "two nights" 2), other values as :func:`_mentioned` (``kind``: the words that
    only say the value's kind)."""
    if is_number(value) and round(float(value), 12) in numbers_for_calls(text, counts):
        return True
    return _mentioned(_spelled(value), text, share, kind, kin)


def uses_given_values(
    arguments: Mapping[str, Any],
    text: str,
    policy: ToolPolicy = _DEFAULT,
    parameters: Mapping[str, Any] | None = None,
    described: Any = None,
) -> bool:
    """Whether any argument value of a call is one the conversation gave.

    A call none of whose values the user gave ("the fastest route from New York to Boston?"
    answered with ``prime_numbers_in_range(1, 50)``) answers nothing that was asked; booleans
    and schema defaults do not count as given. Given the tool's schema or description, a text
    value is not given by the words that only say its kind (:func:`kind_words`: "Greyfell
    Hut", a description's example, is not given by "the hut at the top").

    Args:
        arguments: The call's arguments.
        text: :func:`conversation_text` of the conversation.
        policy: The decision settings (its ``word_share`` and ``described_kinds``).
        parameters: The tool's ``parameters`` schema.
        described: The tool's description.

    Returns:
        True when at least one value was given.
    """
    properties = (parameters or {}).get("properties") or {}
    known = policy.described_kinds and (parameters is not None or described is not None)
    for key, value in arguments.items():
        schema = properties.get(key) if isinstance(properties, Mapping) else None
        said = schema.get("description") if isinstance(schema, Mapping) else None
        kind = kind_words(key, said, described) if known else ()
        for leaf in leaves(value):
            if isinstance(leaf, bool) or not _spelled(leaf):
                continue
            kind_of_leaf = kind if isinstance(leaf, str) else ()
            if _given(leaf, text, policy.word_share, kind_of_leaf, counts=policy.counted_numbers):
                return True
    return False


def lone_text_parameter(parameters: Mapping[str, Any] | None) -> str | None:
    """A tool's one required parameter, when it is its only required one and takes text: the
    value a lookup is asked about.

    Args:
        parameters: The tool's ``parameters`` schema.

    Returns:
        The parameter's name, or ``None``.
    """
    required = list((parameters or {}).get("required") or [])
    properties = (parameters or {}).get("properties") or {}
    if len(required) != 1 or (properties.get(required[0]) or {}).get("type") != "string":
        return None
    return required[0]


def defaults_of(parameters: Mapping[str, Any] | None) -> frozenset[str]:
    """The default values a tool's ``parameters`` schema offers, spelled as compared.

    A default written out (``discovery_order=1`` where 1 is the default) asks for nothing new
    and needs no mention.

    Args:
        parameters: The tool's ``parameters`` schema.

    Returns:
        The defaults' spellings.
    """
    properties = (parameters or {}).get("properties") or {}
    return frozenset(
        _spelled(schema["default"])
        for schema in properties.values()
        if isinstance(schema, Mapping) and schema.get("default") is not None
    )


def adds_new_grounded_values(
    arguments: Mapping[str, Any],
    previous: Sequence[Mapping[str, Any]],
    text: str,
    policy: ToolPolicy = _DEFAULT,
    exempt: Collection[str] = (),
    named: Collection[str] = (),
) -> bool:
    """Whether one more call asks for something new that the conversation mentions.

    The small model, once made to write another call, writes one whatever the request: a
    copy of the first, the same values shuffled, or invented values. A genuine extra call
    (the second city, the other artist) differs from the calls before it in values the user
    wrote. So: the call's argument values not already used by an earlier call of this
    answer must exist and bring a word or number none of those calls used (the same numbers
    rearranged into another expression ask for nothing new), and each must be mentioned in
    the conversation; of the words of each text value that none of those calls used, at
    least ``word_share`` must occur in the conversation ("Mount Everest" after "Mount Fuji",
    asked only about Fuji, is half mentioned, but not in what it brings). What it brings must
    hold a number or a word of the conversation that is neither a function word nor a word of
    the tools' names (``named``): ``route="Paris to Rome"`` after ``shortest_path("Paris",
    "Rome")`` brings only "to", ``sculpture_name="marble sculpture"`` after a price asked of
    marble only the "sculpture" of ``sculpture_price``, ``wave_file="sound.wav"`` only the
    "sound" of ``generate_sound_wave``: each asks again what the first call asked.
    A boolean is a switch, not a value anyone states: it neither brings anything nor needs a
    mention (``direct_flight=true`` for "book a direct flight").

    Args:
        arguments: The candidate call's arguments.
        previous: The arguments of the calls already made in this answer.
        text: :func:`conversation_text` of the conversation.
        policy: The decision settings (its ``word_share``).
        exempt: Spellings that are neither new nor need a mention (:func:`defaults_of`).
        named: The case-folded words of the offered tools' names.

    Returns:
        True to keep the call.
    """
    before = {_spelled(v) for call in previous for v in leaves(call)}
    values = {_spelled(v): v for v in leaves(arguments) if not isinstance(v, bool)}
    novel = set(values) - before - set(exempt) - {""}
    used = {word for value in before for word in _words(value)}
    fresh = {word for value in novel for word in _words(value)} - used
    asking = set(named) | FUNCTION_WORDS
    kin = policy.word_families
    brought = [w for w in fresh if w[0].isdigit() or (w not in asking and _said(w, text, kin))]
    share, counts = policy.word_share, policy.counted_numbers
    return bool(brought) and all(
        _given(values[v], text, share, kin=kin, counts=counts)
        and _news_given(values[v], used, text, share, kin)
        for v in novel
    )


def _news_given(value: Any, used: set[str], text: str, share: float, kin: bool = False) -> bool:
    """Whether at least ``share`` of the words a text value brings (those not in ``used``)
    occur in the text (with ``kin``, or words of their families); numbers are checked as
    numbers, by :func:`_given`."""
    spelled = _spelled(value)
    if is_number(value) or occurs(spelled, text):
        return True  # a number, or the value whole ("K2", whose "k" is no word of the text)
    rest = says_moments(spelled, text)
    spelled = spelled if rest is None else rest  # a stated date's month name is the user's, as pm
    news = [w for w in _words(spelled) if w not in used and not w[0].isdigit()]
    return sum(_said(word, text, kin) for word in news) >= share * len(news)


def needs_unstated_number(
    parameters: Mapping[str, Any] | None,
    previous: Sequence[Mapping[str, Any]],
    text: str,
    counts: bool = False,
) -> bool:
    """Whether every call of a tool would hold a number nobody gave, before one is written.

    A tool that requires a number (no ``enum``, ``const`` or default to take instead), asked
    of a conversation that states no number (``add`` after "the temperatures of Beijing and Xi'an?",
    before any result) when no call of the answer holds one either and no default of the tool
    is one: whatever the call, :func:`rules_out_extra_call` dooms it at that number, so it
    need not be written.

    Args:
        parameters: The tool's ``parameters`` schema.
        previous: The arguments of the calls already made in this answer.
        text: :func:`conversation_text` of the conversation.
        counts: Whether "one" and "two" before what they count state numbers
            (:attr:`~toolkit.local.decision.policy.ToolPolicy.counted_numbers`).

    Returns:
        True when no call of the tool can be kept.
    """
    schema = parameters or {}
    properties = schema.get("properties") or {}
    required = [properties.get(name) for name in schema.get("required") or [] if name in properties]
    wants_number = any(
        isinstance(p, Mapping)
        and p.get("type") in ("integer", "number")
        and not {"enum", "const", "default"} & set(p)
        for p in required
    )
    if not wants_number:
        return False
    if numbers_for_calls(text, counts):
        return False
    digits = [*defaults_of(parameters), *(_spelled(v) for c in previous for v in leaves(c))]
    return not any(re.search(r"\d", d) for d in digits)


#: The words of a value: numbers (decimals whole) and runs of letters.
_WORD = re.compile(r"\d+(?:\.\d+)?|[^\W\d_]+")


def _words(value: str) -> list[str]:
    return _WORD.findall(value)


def rules_out_extra_call(
    value: Any,
    previous: Sequence[Mapping[str, Any]],
    text: str,
    policy: ToolPolicy = _DEFAULT,
    exempt: Collection[str] = (),
) -> bool:
    """Whether one argument value of a candidate extra call already dooms it.

    A value no earlier call of the answer used and the conversation does not mention (or
    whose words new to the answer it does not) makes :func:`adds_new_grounded_values` false
    whatever the rest of the call says, so generation can stop at that value.

    Args:
        value: A completed argument value (string, number, boolean or ``None``).
        previous: The arguments of the calls already made in this answer.
        text: :func:`conversation_text` of the conversation.
        policy: The decision settings (its ``word_share``).
        exempt: Spellings that never doom a call (:func:`defaults_of`).

    Returns:
        True when the call will be discarded.
    """
    spelled = "" if value is None or isinstance(value, bool) else _spelled(value)
    if not spelled or spelled in exempt:
        return False
    before = {_spelled(v) for call in previous for v in leaves(call)}
    if spelled in before:
        return False
    used = {word for earlier in before for word in _words(earlier)}
    share, kin, counts = policy.word_share, policy.word_families, policy.counted_numbers
    given = _given(value, text, share, kin=kin, counts=counts)
    return not (given and _news_given(value, used, text, share, kin))


def qualifies_earlier(arguments: Mapping[str, Any], earlier: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a call of a tool only says again, with more words, what an earlier call of it
    asked: each value that differs is text holding the earlier call's value of the same
    parameter as whole words ("3 kg of apples" after "apples", "Louvre Museum" after
    "Louvre"). The small model, made to write one more call, qualifies the item it asked
    for instead of naming another.

    Args:
        arguments: The candidate call's arguments.
        earlier: The arguments of the earlier calls of the same tool.

    Returns:
        True for such a call.
    """
    for before in earlier:
        changed = [k for k in arguments if arguments[k] != before.get(k)]
        if changed and all(
            isinstance(arguments[k], str)
            and isinstance(before.get(k), str)
            and before[k].strip()
            and occurs(_spelled(before[k]), _spelled(arguments[k]))
            for k in changed
        ):
            return True
    return False


def moves_values(arguments: Mapping[str, Any], earlier: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a call of a tool only takes values earlier calls of it took, one of them under
    another parameter: ``clock_angle(hours=8, minutes=11)`` after ``(8, 20)`` and ``(11, 50)``,
    ``distance("Venus", "Jupiter")`` after ``("Mars", "Venus")`` and ``("Mars", "Jupiter")``.
    Each value the question gives has one place in its calls; the pairs a list crosses keep
    theirs ("the Lakers and the Bulls in 2018 and 2020"), and a chain's next leg brings a new
    value ("Boston" to "DC" after "New York" to "Boston").

    Args:
        arguments: The candidate call's arguments.
        earlier: The arguments of the earlier calls of the same tool.

    Returns:
        True for such a call.
    """
    places = _places(earlier)
    moved = False
    for key, value in arguments.items():
        for leaf in leaves(value):
            keys = places.get(_spelled(leaf))
            if keys is None:
                return False  # a value no earlier call took
            moved = moved or key not in keys
    return moved


def _places(earlier: Sequence[Mapping[str, Any]]) -> dict[str, set[str]]:
    """The parameters each value (spelled as compared) took in the ``earlier`` calls."""
    places: dict[str, set[str]] = {}
    for before in earlier:
        for key, value in before.items():
            for leaf in leaves(value):
                places.setdefault(_spelled(leaf), set()).add(key)
    return places


def placed_anew(
    arguments: Mapping[str, Any], earlier: Sequence[Mapping[str, Any]], text: str
) -> bool:
    """Whether a call of a tool that takes only values its earlier calls took puts one of
    them where none of those calls put it, and the conversation states each value so moved
    more often than it has places already: the way back of a journey ("from New York to Los
    Angeles, then to Miami, and back to New York" makes ``(Miami, New York)`` after ``(New
    York, Los Angeles)`` and ``(Los Angeles, Miami)``), the same number stated for another
    quantity ("2 coulombs at 2 metres"). Each time the user states a value it has one place;
    ``clock_angle(hours=8, minutes=11)`` after ``(8, 20)`` and ``(11, 50)`` moves an 11 stated
    once (:func:`moves_values`), and ``add(5, 6)`` after ``add(6, 5)`` asks again.

    Args:
        arguments: The candidate call's arguments (those written so far, while decoding).
        earlier: The arguments of the earlier calls of the same tool.
        text: :func:`conversation_text` of the conversation.

    Returns:
        True for such a call.
    """
    places = _places(earlier)
    moved: list[tuple[Any, int]] = []
    for key, value in arguments.items():
        for leaf in leaves(value):
            keys = places.get(_spelled(leaf))
            if keys is None:
                return False  # a value no earlier call took: the other rules judge the call
            if key not in keys:
                moved.append((leaf, len(keys)))
    return bool(moved) and all(_times_stated(leaf, text) > taken for leaf, taken in moved)


def repeats(
    written: Mapping[str, Any],
    required: Sequence[str],
    earlier: Sequence[Mapping[str, Any]],
    *,
    rearranged: bool = False,
) -> bool:
    """Whether the arguments written so far already make a call a repeat of an earlier one.

    Once every required argument is written and each written value equals that of an earlier
    call of the same tool, the call asks again for what was asked: generation can stop there
    instead of writing the rest. With ``rearranged``, a call whose values bring no word or
    number the earlier calls did not use (``add(5, 6)`` after ``add(6, 5)``) counts too.

    Args:
        written: The call's argument values completed so far, by name.
        required: The tool's required argument names.
        earlier: The arguments of the earlier calls of the same tool.
        rearranged: Also count the same words and numbers in another order.

    Returns:
        True for a repeat.
    """
    if not earlier or not required or any(name not in written for name in required):
        return False
    if rearranged:
        used = {w for call in earlier for v in leaves(call) for w in _words(_spelled(v))}
        return {w for v in written.values() for w in _words(_spelled(v))} <= used
    return any(
        all(_spelled(value) == _spelled(call.get(name)) for name, value in written.items())
        for call in earlier
    )


def arguments_of(call: Mapping[str, Any]) -> dict[str, Any]:
    """The decoded arguments of an OpenAI tool call (``{}`` when they are not an object).

    Args:
        call: An OpenAI tool call.

    Returns:
        The arguments.
    """
    try:
        value = json.loads(call["function"]["arguments"])
    except (KeyError, TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def text_values(call: Mapping[str, Any]) -> list[str]:
    """A call's text values, in order (the names a lookup was asked about).

    Args:
        call: An OpenAI tool call.

    Returns:
        The values of its arguments that are strings.
    """
    return [v for v in arguments_of(call).values() if isinstance(v, str)]


def _signature(name: Any, arguments: Any) -> tuple[str, str]:
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return str(name), arguments
    return str(name), json.dumps(arguments, sort_keys=True, ensure_ascii=False)


def is_error(result: str) -> bool:
    """Whether a tool result's text is an error: ``Error: ...``, as the loop's executor,
    LangGraph's tool node and the seed's defensive loop write them, or a refusal a tool
    returns as its result in its own words.

    A refusal begins as one ("not found: X. Known warehouses: …", "未找到: X", "Unknown city",
    "No sawmill named 'X'", "No record for 'X'", "I couldn't find a mill called X", "Sorry,
    there is no X", "Unsupported pair", ``{"error": …}``), or, holding no digit, says in its
    first sentence that the thing is not there ("Quarry 'X' is not in the registry.",
    "Observatory X does not exist.", "X 不存在").

    Args:
        result: The result's text.

    Returns:
        True for an error.
    """
    if _REFUSAL.match(result) is not None:
        return True
    if re.search(r"\d", result):
        return False
    first = re.split(r"(?<=[.!?。！？])\s*", result.strip(), maxsplit=1)[0]
    return _ABSENT.search(first) is not None


#: How an error or a tool's refusal begins.
_REFUSAL = re.compile(
    r"""\s*["'{]*\s*(?:error|not\s+found|no\s+such|unknown|unsupported|invalid|sorry\b"""
    r"|no\s+(?:records?|entry|entries|data|information|info|results?|match(?:es)?)\b"
    r"|(?:i|we)\s+(?:couldn'?t|could\s+not|can'?t|cannot|can\s+not|(?:was|am|were|are)\s+"
    r"unable\s+to)\s+(?:find|locate|look\s+up|identify)\b"
    r"|there(?:\s+is|'s|\s+are)\s+no\b"
    r"|未找到|找不到|没有找到|查无|查不到|错误|抱歉|无法|未知|不存在|暂无|无此"
    r"|没有(?:名为|叫做?|这|该|此|关于)"
    r"|no(?:\s+[\w-]+){1,4}?\s+(?:named|called|matching|matches|found)\b)",
    re.IGNORECASE,
)

#: A first sentence's words that the thing asked about is not there.
_ABSENT = re.compile(
    r"\b(?:does\s+not|doesn't)\s+exist|\b(?:is|was|are)(?:\s+not|n't)\s+(?:(?:in|on)\s+(?:the|our"
    r"|my|any|this)\s+(?:[\w-]+\s+){0,2}?(?:registry|register|records?|database|list|catalog(?:ue)?"
    r"|index|system|directory|files?|books?)\b|(?:a\s+)?(?:known|listed|recogni[sz]ed|found"
    r"|registered)\b)|\b(?:could\s+not|couldn't|cannot|can't)\s+"
    r"be\s+found|\bnot\s+found\b|\bno\s+match|不存在|未找到|找不到|查无|没有(?:这|该|此)"
    # a record whose result or status is none ("result=none; query=X; reason=unknown kite")
    r"|\b(?:result|status|found|match)[\"']?\s*[=:]\s*[\"']?(?:none|null|false|missing|unknown)\b",
    re.IGNORECASE,
)


class CallHistory:
    """The calls a conversation already made, and what their results said.

    A new call is *redundant* when the conversation already holds its answer: the same tool
    was called before with the same arguments, or every argument value the new call does not
    share with those earlier calls already appears in their results (``"Xi'an"`` after a
    result reading ``"西安 (Xi'an): 5 °C"``). Small models ask again for what they were just
    told; a redundant call is dropped rather than executed twice.

    Args:
        messages: OpenAI messages.
        policy: The decision settings (its ``word_share``).
    """

    def __init__(
        self, messages: Sequence[Mapping[str, Any]], policy: ToolPolicy = _DEFAULT
    ) -> None:
        self._share = policy.word_share
        self.signatures: set[tuple[str, str]] = set()
        #: The arguments of every call the conversation made, by tool name.
        self.arguments: dict[str, list[dict[str, Any]]] = {}
        self._values: dict[str, set[str]] = {}
        self._results: dict[str, list[str]] = {}
        names_by_id: dict[str, str] = {}
        failed: set[str] = set()
        made: list[tuple[str, str, dict[str, Any]]] = []
        for message in messages:
            if message.get("role") == "assistant":
                for call in message.get("tool_calls") or []:
                    fn = call.get("function") or {}
                    name = str(fn.get("name"))
                    self.signatures.add(_signature(name, fn.get("arguments")))
                    arguments = arguments_of({"function": fn})
                    self.arguments.setdefault(name, []).append(arguments)
                    self._values.setdefault(name, set()).update(map(_spelled, leaves(arguments)))
                    names_by_id[str(call.get("id"))] = name
                    made.append((str(call.get("id")), name, arguments))
            elif message.get("role") == "tool":
                if is_error(content_text(message.get("content"))):
                    failed.add(str(message.get("tool_call_id")))
                    continue  # an error that repeats a value answers nothing about it
                name = names_by_id.get(str(message.get("tool_call_id")), "")
                text = conversation_text([message])
                self._results.setdefault(name, []).append(text)
        #: The arguments of the calls whose result was no error, by tool name: a call that
        #: failed asked for nothing yet ("gears" after "bolts and gears" failed is new).
        self.answered: dict[str, list[dict[str, Any]]] = {}
        for call_id, name, arguments in made:
            if call_id not in failed:
                self.answered.setdefault(name, []).append(arguments)

    def redundant(self, call: Mapping[str, Any]) -> bool:
        """Whether the conversation already holds the answer to a call.

        Args:
            call: An OpenAI tool call.

        Returns:
            True for a call that repeats an earlier one or asks only for what its results said.
        """
        fn = call["function"]
        if _signature(fn["name"], fn["arguments"]) in self.signatures:
            return True
        if fn["name"] not in self._values:
            return False
        novel = {_spelled(v) for v in leaves(arguments_of(call))} - self._values[fn["name"]]
        results = "\n".join(self._results.get(fn["name"], []))
        asked = self._values[fn["name"]]
        return bool(results) and all(
            _mentioned(v, results, self._share) and not _linked(v, results, asked)
            for v in novel - {""}
        )


def _linked(value: str, results: str, asked: AbstractSet[str]) -> bool:
    """Whether results give a value only as another thing a record links to, under a label
    that is not the record's name (``"sister_cave": "格里斯霍尔特奶酪洞"``), a label no earlier
    call followed (took a value of, among ``asked``): a thing of the same kind, whose own
    record the call asks for, not one the results already told. The sister's sister is told:
    the link was followed once."""
    pairs = labelled_texts(results)
    labels = {label for label, text in pairs if _spelled(text) == _spelled(value)}
    if not labels or any(label.casefold() in ("name", "title") for label in labels):
        return False
    # a label of which a call took a value was followed once already
    return not any(label in labels and _spelled(text) in asked for label, text in pairs)


#: Where a description stops saying what kind of value it asks for and starts showing one: a
#: quoted example (an apostrophe inside a word, as in "the hut's", opens nothing), or the
#: words that bring one in, up to the description's end.
_SHOWN = re.compile(
    r"(?<![^\W_])'[^'\n]{1,80}'(?![^\W_])|\"[^\"\n]{1,80}\"|“[^”\n]{1,80}”"
    r"|\b(?:e\.\s?g\.|such as|for example|for instance)(?![^\W_]).*|(?:例如|比如).*",
    re.IGNORECASE | re.DOTALL,
)


def kind_words(name: str, *descriptions: Any) -> set[str]:
    """The words that say what kind of value a parameter asks for: its name's and those its
    descriptions (the parameter's, the tool's) say outside their examples — "hut" of 'The
    hut's name, e.g. "Greyfell Hut"' or of "Look up a mountain hut". Every value of the kind
    may hold them, so they do not tell which one the user meant.

    Args:
        name: The parameter's name.
        descriptions: Descriptions (anything not a string says nothing).

    Returns:
        The words, case-folded, each also without a plural "s".
    """
    said = " ".join(_SHOWN.sub(" ", d) for d in descriptions if isinstance(d, str))
    words = _words(f"{' '.join(name_parts(name))} {said}".casefold())
    return set(words) | {w.removesuffix("s") for w in words if len(w) > 1}


def ungrounded_values(
    arguments: Mapping[str, Any],
    parameters: Mapping[str, Any] | None,
    text: str,
    policy: ToolPolicy = _DEFAULT,
    described: Any = None,
) -> list[Any]:
    """The argument values of a call that the conversation never gave.

    Numbers anywhere in the arguments must have been stated, in digits or in words
    (:func:`~toolkit.local.decision.numbers.numbers_for_calls`; the numbers of a date or a
    time of day the conversation states, in whatever spelling, were); a text argument
    must be mentioned (its own words, not only those that say its kind, :func:`kind_words`:
    "Saltmarsh Observatory" for ``observatory`` asked about the Kestrel Peak Observatory,
    "Greyfell Hut" for a hut's ``name`` asked about "the hut at the top"), unless the
    tool's schema offers it (an ``enum`` or ``const`` value, or
    the default; a number too, with :attr:`~ToolPolicy.offered_numbers`, when its ``enum`` or
    ``const`` offers it and its description says it stands for words the conversation says).
    A call made of such values is the model's guess, not the user's request:
    ``get_population("Tokyo")`` asked about the capital of France.

    Args:
        arguments: The call's arguments.
        parameters: The tool's ``parameters`` schema (for its offered values).
        text: :func:`conversation_text` of the conversation.
        policy: The decision settings (its ``word_share``; with ``described_kinds`` off only
            the parameter's name says a value's kind).
        described: The tool's description.

    Returns:
        The ungrounded values, in order (empty for a grounded call).
    """
    properties = (parameters or {}).get("properties") or {}
    undated = {k: _without_stated_moments(v, text) for k, v in arguments.items()}
    if policy.offered_numbers:  # a number the schema offers is its choice, as a text is
        undated = {
            k: v for k, v in undated.items() if not _offered_number(v, properties.get(k), text)
        }
    stated = numbers_for_calls(text, policy.counted_numbers)
    found: list[Any] = list(ungrounded_numbers(undated, stated))
    for key, value in arguments.items():
        if not isinstance(value, str) or not value.strip():
            continue
        schema = properties.get(key) if isinstance(properties, Mapping) else None
        schema = schema if isinstance(schema, Mapping) else {}
        offered = [*(schema.get("enum") or []), schema.get("const"), schema.get("default")]
        if value in offered or all(w[0].isdigit() for w in _words(value)):
            continue  # offered by the schema, or only numbers (checked as numbers above)
        kind = (
            kind_words(key, schema.get("description"), described)
            if policy.described_kinds
            else set(_words(" ".join(name_parts(key)).casefold()))
        )
        if not _mentioned(_spelled(value), text, policy.word_share, kind):
            found.append(value)
    return found


#: The fewest letters a word of an invented value has: shorter words are codes ("USD", "en",
#: "CA", "PC") that stand for the user's words without sharing one.
_INVENTED_WORD = 4


def invented_texts(
    arguments: Mapping[str, Any], parameters: Mapping[str, Any] | None, text: str
) -> list[str]:
    """The texts of a call's required parameters (a text, or a list's texts) that share no word
    with the conversation in any form: the model's invention, not a spelling of the user's
    words. ``location="Los Angeles, CA"`` asked for "an IMAX show at 3rd Street Cinema",
    ``password="password"`` for "the API token for 098-293", ``elements=["apple", "banana",
    "cherry"]`` for "testtwetwet". A text the schema offers (``enum``, ``const``, the
    default) is not invented, nor one of codes only (every word in capitals or shorter than
    :data:`_INVENTED_WORD` letters: "USD" for "dollars", "AAPL" for Apple), nor one in a
    script written without spaces (its words cannot be told apart); a word is said in another
    form when the two share their Snowball root (:func:`~toolkit.local.decision.records.root`:
    "detailed" by "details") or one begins the other ("Germany" by "German history").

    Args:
        arguments: The call's arguments.
        parameters: The tool's ``parameters`` schema (its ``required`` list and offered values).
        text: :func:`conversation_text` of the conversation.

    Returns:
        The invented texts, in order (empty when there is none).
    """
    properties = (parameters or {}).get("properties") or {}
    required = set((parameters or {}).get("required") or [])
    said, long = _said_words(text)
    found: list[str] = []
    for key in (k for k in arguments if k in required):
        schema = properties.get(key) if isinstance(properties, Mapping) else None
        schema = schema if isinstance(schema, Mapping) else {}
        value = arguments[key]
        items = value if isinstance(value, list) else [value]
        shape = schema.get("items") if isinstance(value, list) else schema
        shape = shape if isinstance(shape, Mapping) else {}
        offered = [*(shape.get("enum") or []), shape.get("const"), shape.get("default")]
        for item in items:
            if not isinstance(item, str) or item in offered or not item.isascii():
                continue
            words = [w for w in re.findall(r"[^\W\d_]+", item) if not w.isupper()]
            words = [w.casefold() for w in words]
            if any(len(w) >= _INVENTED_WORD for w in words) and not any(
                root(w) in said or _begins_said(w, long) for w in words
            ):
                found.append(item)
    return found


@functools.lru_cache(maxsize=16)
def _said_words(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The roots of a conversation's words, and its words of at least :data:`_INVENTED_WORD`
    + 1 letters: read once per conversation, not once per call judged."""
    said = frozenset(root(w) for w in re.findall(r"[^\W\d_]+", text))
    long = frozenset(re.findall(rf"[^\W\d_]{{{_INVENTED_WORD + 1},}}", text))
    return said, long


def _begins_said(word: str, long: frozenset[str]) -> bool:
    """Whether the text says a word (of its ``long`` words) that one of ``word`` and it
    begins, both at least :data:`_INVENTED_WORD` + 1 letters long ("Germany" by "German
    history")."""
    if len(word) < _INVENTED_WORD + 1:
        return False
    return any(word.startswith(other) or other.startswith(word) for other in long)


#: Words a description puts between a code and what it stands for ("'2' for ironing", "1
#: represents cleaning", "3 means a suite").
_CODE_WORDS = frozenset(
    "for is are a an the means mean stands stand represents represent indicates indicate "
    "denotes denote refers refer to as of or and".split()
)
#: A number in a description, with the words after it up to the next number.
_DESCRIBED_CODE = re.compile(r"(?<![\w.])['\"]?(\d+(?:\.\d+)?)['\"]?(?![\w.])([^\d]*)")


def _described_as_said(value: float, description: Any, text: str) -> bool:
    """Whether a description says what a code stands for in words the text says: "'2' for
    ironing service" of a question about ironing."""
    if not isinstance(description, str):
        return False
    said = {w.casefold() for w in _words(text)}
    said |= {w.removesuffix("s") for w in said}
    for number, after in _DESCRIBED_CODE.findall(description):
        if float(number) != value:
            continue
        words = [w.casefold() for w in _words(after)][:5]
        meant = [w for w in words if w not in _CODE_WORDS and len(w) >= 3]
        if any(w in said or w.removesuffix("s") in said for w in meant[:2]):
            return True
    return False


def _offered_number(value: Any, schema: Any, text: str) -> bool:
    """Whether a number is one its parameter's schema offers (an ``enum`` or ``const``
    value) for words the text says, as its description puts it: ``service_id=2`` of
    ``enum: [1, 2, 3]`` described "'2' for ironing service", asked about ironing (not
    ``number_of_tickets=1`` of "an integer from 1 to 9", asked about a play)."""
    if not is_number(value) or not isinstance(schema, Mapping):
        return False
    offered = [*(schema.get("enum") or []), schema.get("const")]
    if not any(is_number(o) and o == value for o in offered):
        return False
    return _described_as_said(float(value), schema.get("description"), text)


def _without_stated_moments(value: Any, text: str) -> Any:
    """A text value with the dates and times of day the text states taken out (their numbers
    are the user's: the 4 of "2022-04-05" is "April", the 23 of "23:00" is "11PM"); other
    values as they are."""
    if isinstance(value, str):
        rest = says_moments(_spelled(value), text)
        return value if rest is None else rest
    return value


def without_unfounded(
    arguments: Mapping[str, Any],
    parameters: Mapping[str, Any] | None,
    text: str,
    policy: ToolPolicy = _DEFAULT,
) -> dict[str, Any]:
    """A call's arguments without its :func:`unfounded_options`, inside the objects it holds
    too (``body={"mode": "COOL", "targetTemperature": 22}`` asked to "set cool mode" keeps
    the mode: the temperature is an optional guess of the object's own schema). An optional
    list of texts keeps the items the conversation mentions, in any form of their words
    (``amenities=["Patio", "Wi-Fi", "Happy Hour"]`` asked for "a Patio and Wi-Fi"; the
    choices its schema offers too, with :attr:`~ToolPolicy.unasked_choices` off).

    Args:
        arguments: The call's arguments.
        parameters: The tool's ``parameters`` schema.
        text: :func:`conversation_text` of the conversation.
        policy: The decision settings.

    Returns:
        The arguments kept.
    """
    left_out = unfounded_options(arguments, parameters, text, policy)
    properties = (parameters or {}).get("properties") or {}
    required = set((parameters or {}).get("required") or [])
    share = policy.word_share
    kept: dict[str, Any] = {}
    for key, value in arguments.items():
        if key in left_out:
            continue
        schema = properties.get(key) if isinstance(properties, Mapping) else None
        if isinstance(value, Mapping) and isinstance(schema, Mapping) and schema.get("properties"):
            value = without_unfounded(value, schema, text, policy)
        if key not in required and _text_items(value):
            items = schema.get("items") if isinstance(schema, Mapping) else None
            offered = (items.get("enum") or []) if isinstance(items, Mapping) else []
            offered = [] if policy.unasked_choices else offered  # a choice must be asked for
            value = [v for v in value if v in offered or _asked(_spelled(v), text, share)]
            if not value:
                continue  # every item the model's: the tool's default applies
        kept[key] = value
    return kept


def _asked(value: str, text: str, share: float) -> bool:
    return _mentioned(value, text, share) or _said_in_a_form(value, text)


def _text_items(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


def unfounded_options(
    arguments: Mapping[str, Any],
    parameters: Mapping[str, Any] | None,
    text: str,
    policy: ToolPolicy = _DEFAULT,
) -> list[str]:
    """The optional arguments of a call whose values the conversation never gave.

    The small model fills optional parameters with guesses (``start_year=1789`` asked about
    Lincoln's presidency, ``mission="Mission 1"``); left out, the tool's own default applies
    instead of the guess. A choice the schema offers (``enum``) is a guess too when it is not
    the default and the conversation never mentions it (:attr:`~ToolPolicy.unasked_choices`),
    and so is a list or object that only holds the call's other values again. A required
    argument is never among them, nor a yes-or-no written as the conversation says it
    (:func:`~toolkit.local.decision.stated.said_flags`).

    Args:
        arguments: The call's arguments.
        parameters: The tool's ``parameters`` schema (its ``required`` list and offered
            values).
        text: :func:`conversation_text` of the conversation.
        policy: The decision settings (its ``word_share``).

    Returns:
        The names of those arguments, in order.
    """
    required = set((parameters or {}).get("required") or [])
    properties = (parameters or {}).get("properties") or {}
    said = said_flags(parameters, text) if policy.stated_flags else {}
    return [
        key
        for key, value in arguments.items()
        if key not in required
        and not (key in said and said[key] == value)  # a yes-or-no the user said
        and (
            ungrounded_values({key: value}, parameters, text, policy)
            or _unasked_choice(value, properties.get(key), text, policy)
            or _unasked_flag(key, value, properties.get(key), text, policy)
            or _copies_others(key, value, arguments)
        )
    ]


def _copies_others(key: str, value: Any, arguments: Mapping[str, Any]) -> bool:
    """Whether an optional list or object holds only values the call's other arguments hold:
    ``deck=[{"rank": "Queen", "suit": "Hearts"}]`` beside ``rank="Queen", suit="Hearts"`` is
    the model filling a slot with what it already wrote, not a deck anyone gave."""
    if not isinstance(value, (list, Mapping)):
        return False
    own = [_spelled(v) for v in leaves(value) if not isinstance(v, bool)]
    others = {_spelled(v) for k, v in arguments.items() if k != key for v in leaves(v)}
    return bool(own) and all(v in others for v in own)


def _unasked_choice(value: Any, schema: Any, text: str, policy: ToolPolicy) -> bool:
    """Whether an optional value is one of its parameter's offered choices (``enum``) that is
    not the default and that the conversation never mentions, in any form of its words, nor
    may say in another script ("华氏度" for "fahrenheit"): the model picked it
    (``unit="seconds"`` for "check whether docker is installed";
    :attr:`~ToolPolicy.unasked_choices`)."""
    if not policy.unasked_choices or not isinstance(value, str) or not isinstance(schema, Mapping):
        return False
    if value not in (schema.get("enum") or []) or value == schema.get("default"):
        return False
    if other_scripts(value, text):
        return False  # the user's word in another script may be the choice translated
    return not _mentioned(_spelled(value), text, policy.word_share) and not _said_in_a_form(
        _spelled(value), text
    )


def _unasked_flag(key: str, value: Any, schema: Any, text: str, policy: ToolPolicy) -> bool:
    """Whether an optional yes-or-no is turned from the default its schema states while the
    conversation names none of the flag's words (``request_heartbeat=true`` for "Search memory
    for when is shishir's birthday", ``no_redirect=true`` for a plain search; not
    ``private_visibility=true`` for "I prefer to keep the transaction private"):
    :attr:`~ToolPolicy.unasked_flags`."""
    if not policy.unasked_flags or not isinstance(value, bool) or not isinstance(schema, Mapping):
        return False
    if "default" not in schema or schema["default"] is value:
        return False
    said = {root(w) for w in re.findall(r"[^\W\d_]+", text.casefold())}
    words = {root(w.casefold()) for w in name_parts(key) if len(w) > 2}
    return not words & said


def _said_in_a_form(value: str, text: str) -> bool:
    """Whether a word of a choice is in the text in another form: "detailed" by "in detail",
    "DESC" by "descending" (the root's first four letters or more, without an ending)."""
    words = re.findall(r"[^\W\d_]+", text)
    for word in re.findall(r"[^\W\d_]+", value):
        root = re.sub(r"(?:ing|ed|es|s|ly)$", "", word) if len(word) > 4 else word
        if len(root) >= 4 and any(w.startswith(root) for w in words):
            return True
    return False
