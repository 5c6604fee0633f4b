"""Calls that need a result not yet there: a chain's later step written too soon. Pure.

"Compute 144 divided by 12, then add 7": the small model, made to write one more call after
``divide(a=144, b=12)``, writes ``add(x=144, y=7)`` — the 7 is the question's, but the 144 took
the place of the division's result, which does not exist yet. Even with the result (12.0) in
view it writes ``add(144, 7)`` again. Such a call *takes a result's place*: it uses a number no
earlier call used (the step's own operand) together with a number that

* the question states no more often than earlier calls already used it (stated once, used
  once: the number is spent), and
* an earlier call of another tool used for a parameter of another name, or of a bare one- or
  two-letter name that names no meaning (``x``, ``a``).

A number the call itself uses more often than the question writes it (``add(19, 19)`` for "3
to the power of 4, then add 19") is spent too: the second one is the latest result's place.
A call whose numbers are all spent asks the same inputs of another tool ("the sum and the
product of 3 and 4") — unless the question states, after them, a number no call used yet: then
it is the chain's later step written too soon (``multiply(144, 12)`` after ``divide(144, 12)``,
"add 7 to that, then multiply the result by 3"), judged as above.
A number passed on under the same meaningful name (``radius=10`` to the cone's volume and
then its mass, "for the same principal amount") is the same quantity asked of another tool, not
a result's place. Measured on BFCL's ground truth (every case, not only the dev split) before
it was used: of the 400 ``parallel`` and ``parallel_multiple`` answers, 4 hold such a call
(``principal=5000`` after ``amount=5000``; a 3 the question writes once for two quantities;
a 2 rolled "twice"; a list of zeros).

Before any result the answer ends before such a call (it comes in the next step); after
results the call is written with the spender's result in the spent number's place
(:func:`results_in_place`: ``add(12, 7)``), when that result is one number.

A name passes along a chain the same way. "What is the email address of Carol's manager?":
``get_manager(employee="Carol")`` answered "Dave", and the model asks
``get_email(person="Carol")`` again, a call the conversation already made. Its "Carol" is the
value an earlier call of another tool took under another parameter name, and that call's
result is one value no call has used: the call meant is ``get_email(person="Dave")``
(:func:`texts_in_place`). Only a repeat is rewritten so — a call the conversation already
made asks nothing new, so the result's place is the only new thing it can ask.
A result that is a record gives the value under the label that names the parameter
(:func:`labelled_value`: "designer: 周岚 (Zhou Lan)" for ``designer_name``).

A chain's last step is often asked first, of the wrong kind of value: "竹简这款桌游的设计师是哪里
人？" asked as ``get_designer_hometown("竹简")``, which fails; ``get_board_game("竹简")`` then
answers with the designer. The failed call is the step still to make, with the record's value in
its place (:func:`failed_step_to_resume`), whatever the model would write next.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from toolkit.local.decision.grounding import lone_text_parameter
from toolkit.local.decision.kinds import (
    glossed_terms,
    kind_of,
    lookup_keys,
    names_in_capitals,
)
from toolkit.local.decision.mentions import ACTION_WORDS, says_kind
from toolkit.local.decision.numbers import (
    first_stated,
    is_number,
    known_numbers,
    plain_number,
    result_numbers,
    stated_times,
)
from toolkit.local.decision.phrases import asking_sentence, writes_spaceless
from toolkit.local.decision.records import (
    asked_number,
    label_words,
    labelled_numbers,
    labelled_texts,
    labelled_value,
    name_parts,
    name_words,
    root,
    stem,
    word_roots,
)

__all__ = [
    "PEOPLE",
    "chinese_links",
    "doubled_in_place",
    "failed_step_to_resume",
    "fields_in_place",
    "fields_of_one_record",
    "first_step_for",
    "is_value",
    "kind_named",
    "linked_names",
    "named_next_step",
    "number_parameters",
    "other_field",
    "points_past",
    "refers_back",
    "results_in_place",
    "says_its_kind",
    "spent_numbers",
    "takes_a_result_place",
    "texts_in_place",
]

#: Parameter names this short are positions (``x``, ``y``, ``a``), not meanings.
_BARE_NAME = 2


def number_parameters(arguments: Mapping[str, Any]) -> Iterator[tuple[str, float]]:
    """Each number of a call's arguments with the name of the parameter holding it (the
    innermost named one, for numbers in lists and objects).

    Args:
        arguments: The call's arguments.

    Yields:
        ``(parameter, number)`` pairs, the numbers as positive floats (a sign is not read).
    """
    for key, value in arguments.items():
        yield from _numbers_in(value, str(key))


def _numbers_in(value: Any, name: str) -> Iterator[tuple[str, float]]:
    if is_number(value):
        yield name, abs(float(value))
    elif isinstance(value, Mapping):
        yield from number_parameters(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _numbers_in(item, name)


def spent_numbers(
    tool: str,
    arguments: Mapping[str, Any],
    earlier: Sequence[tuple[str, Mapping[str, Any]]],
    question: str,
) -> list[tuple[str, float, int | None]]:
    """The numbers of a call that take an earlier call's result's place.

    Args:
        tool: The call's tool.
        arguments: Its arguments.
        earlier: ``(tool, arguments)`` of the calls this turn made before it, in order.
        question: The question's text.

    Returns:
        ``(parameter, number, index in earlier of the call that spent it)`` for each such
        number (see the module docstring), the index ``None`` for a number the call uses
        again itself more often than the question states it (``add(19, 19)`` for "3 to the
        power of 4, then add 19"); empty when the call holds no number of its own.
    """
    used = [(i, t, name, n) for i, (t, a) in enumerate(earlier) for name, n in number_parameters(a)]
    spent = {n for *_, n in used}
    mine = list(number_parameters(arguments))
    if not mine:
        return []
    if all(n in spent for _, n in mine) and not _waiting_after(mine, spent, question):
        return []  # nothing of its own: the same inputs asked of another tool
    found: list[tuple[str, float, int | None]] = []
    seen: dict[float, int] = {}
    for name, number in mine:
        uses = [(i, t, other) for i, t, other, n in used if n == number]
        seen[number] = seen.get(number, 0) + 1
        if stated_times(number, question) >= len(uses) + seen[number]:
            continue
        if seen[number] > 1:
            found.append((name, number, None))  # the call spent it itself: add(19, 19)
            continue
        spenders = [
            i for i, t, other in uses if t != tool and (other != name or len(name) <= _BARE_NAME)
        ]
        if spenders:
            found.append((name, number, spenders[-1]))
    return found


def _waiting_after(mine: Sequence[tuple[str, float]], spent: set[float], question: str) -> bool:
    """Whether the question states, after the last of a call's numbers, a number no call used:
    "Divide 144 by 12, add 7 to that, then multiply the result by 3" still holds 7 and 3
    after ``divide(144, 12)``, so ``multiply(144, 12)`` is no second question about the same
    inputs but the last step written too soon."""
    last = max(first_stated(n, question) for _, n in mine)
    taken = spent | {n for _, n in mine}
    return any(n not in taken and first_stated(n, question) > last for n in known_numbers(question))


def takes_a_result_place(
    tool: str,
    arguments: Mapping[str, Any],
    earlier: Sequence[tuple[str, Mapping[str, Any]]],
    question: str,
) -> bool:
    """Whether a call puts a spent number where an earlier call's result belongs
    (:func:`spent_numbers` finds one).

    Args:
        tool: The call's tool.
        arguments: Its arguments.
        earlier: ``(tool, arguments)`` of the calls this turn made before it.
        question: The question's text.

    Returns:
        True when it does.
    """
    return bool(spent_numbers(tool, arguments, earlier, question))


def results_in_place(
    arguments: Mapping[str, Any],
    spent: Sequence[tuple[str, float, int | None]],
    results: Sequence[str | None],
) -> dict[str, Any] | None:
    """The arguments with each spent number replaced by the result of the call that spent it
    (a number the call spent itself: by the latest result).

    Args:
        arguments: The call's arguments.
        spent: :func:`spent_numbers` of the call.
        results: The result text of each earlier call (``None`` when it has none yet).

    Returns:
        The new arguments, in the same order; ``None`` unless every spent number is a
        parameter's whole value and its spender's result states exactly one number.
    """
    spenders = [index for _, _, index in spent if index is not None]
    if not spent or len(spenders) != len(set(spenders)):
        return None  # one result cannot take two places
    replaced = dict(arguments)
    for name, number, index in spent:
        value = replaced.get(name)
        where = len(results) - 1 if index is None else index
        result = results[where] if 0 <= where < len(results) else None
        written = result_numbers(result or "")
        if not is_number(value) or abs(float(value)) != number or len(written) != 1:
            return None
        new = float(written[0])
        replaced[name] = plain_number(new)
    return replaced


def doubled_in_place(
    arguments: Mapping[str, Any],
    earlier: Sequence[tuple[str, Mapping[str, Any]]],
    question: str,
) -> dict[str, Any] | None:
    """The arguments with a number the call writes more often than the question states it
    replaced, in its later places, by the question's next number no call used.

    "先取 250 的一半，加上 37" asked of ``divide_numbers(dividend=250, divisor=250)``: the
    second 250 is the place of the half's 2 (:func:`~toolkit.local.decision.numbers.
    word_numbers`), the question's first number after 250 that no call took. Of BFCL's 2,005
    ground-truth calls two write a number more often than their question states it (both a
    default repeated), so a number written twice is the place of another.

    Args:
        arguments: The call's arguments.
        earlier: ``(tool, arguments)`` of the calls this turn made before it.
        question: The question's text.

    Returns:
        The new arguments, in the same order; ``None`` unless some top-level number the
        question states is written more often than stated and an unused number takes each
        extra place.
    """
    places = [k for k, v in arguments.items() if is_number(v)]
    values = [abs(float(arguments[k])) for k in places]
    taken = {n for _, a in earlier for _, n in number_parameters(a)} | set(values)
    unused = sorted(
        (n for n in known_numbers(question) if n not in taken),
        key=lambda n: first_stated(n, question),
    )
    replaced, seen, changed = dict(arguments), dict[float, int](), False
    for key, value in zip(places, values, strict=True):
        seen[value] = seen.get(value, 0) + 1
        stated = stated_times(value, question)
        if not stated or seen[value] <= stated:
            continue
        after = [n for n in unused if first_stated(n, question) > first_stated(value, question)]
        pick = (after or unused or [None])[0]
        if pick is None:
            return None
        unused.remove(pick)
        replaced[key], changed = plain_number(pick), True
    return replaced if changed else None


#: A result that is one value: a short phrase with no sentence punctuation ("Dave", "李强",
#: "Sales"), not a sentence, a list or a reading ("北京 (Beijing): 6 °C, sunny").
_VALUE = re.compile(r"[^\n:;,.!?。，：；！？、()（）]{1,40}")


def is_value(result: str | None) -> bool:
    """Whether a tool result is one value another call could take (not an error).

    Args:
        result: The result's text.

    Returns:
        True for a short phrase without sentence punctuation that is no error message.
    """
    text = (result or "").strip()
    return bool(_VALUE.fullmatch(text)) and not text.casefold().startswith("error")


def _answer_after(result: str | None, asked: str) -> str | None:
    """The value a result gives after restating what it was asked about: "北京" of
    "中国 (China): 北京 (Beijing)" asked about "China" (a name with its translation in
    brackets is the name)."""
    head, colon, tail = (result or "").partition(":")
    if not colon:
        head, colon, tail = (result or "").partition("：")
    name = re.sub(r"\s*[(（][^()（）]*[)）]\s*$", "", tail).strip()
    if not colon or asked.strip().casefold() not in head.casefold() or not is_value(name):
        return None
    return name


def texts_in_place(
    tool: str,
    arguments: Mapping[str, Any],
    earlier: Sequence[tuple[str, Mapping[str, Any]]],
    results: Sequence[str | None],
) -> dict[str, Any] | None:
    """A repeated call's arguments with each text value that an earlier call of another tool
    took under another parameter name replaced by that call's result, when the result is one
    value (:func:`is_value`) — or a record with a value labelled for the parameter
    (:func:`labelled_value`) — that no call used yet (see the module docstring).

    Args:
        tool: The call's tool.
        arguments: Its arguments.
        earlier: ``(tool, arguments)`` of the calls this turn made, in order.
        results: The result text of each of them (``None`` when it has none).

    Returns:
        The new arguments, in the same order; ``None`` when no value takes a result's place.
    """
    used = {str(v).strip().casefold() for _, a in earlier for v in a.values() if isinstance(v, str)}
    replaced, changed = dict(arguments), False
    for name, value in arguments.items():
        if not isinstance(value, str):
            continue
        for i in reversed(range(len(earlier))):
            other_tool, other = earlier[i]
            result = results[i] if i < len(results) else None
            took = [k for k, v in other.items() if isinstance(v, str) and v == value]
            if other_tool == tool or not took or name in took:
                continue
            answer = (
                (result or "").strip()
                if is_value(result)
                else labelled_value(result, name) or _answer_after(result, value)
            )
            if not answer or answer.casefold() in used:
                continue
            replaced[name], changed = answer, True
            break
    return replaced if changed else None


def failed_step_to_resume(
    earlier: Sequence[tuple[str, Mapping[str, Any]]],
    results: Sequence[str | None],
    failed: Sequence[bool],
    question: str = "",
) -> tuple[str, dict[str, Any]] | None:
    """The call the chain still has to make, when its last step was asked first, of the wrong
    value: a call that failed at a text value, after which a call of another tool that took
    the same value succeeded with a record holding a value for the failed call's parameter
    (see the module docstring), unless a later call asked it already. A record that only
    names a thing of the failed tool's kind resumes the step when the question, in Latin
    letters, says that kind: asked how many people work at three chandleries, the small model
    had asked two of them of ``get_dye_works`` — a name of the wrong tool, no step of a chain —
    and each chandlery's "dye supplier" was then looked up.

    Args:
        earlier: ``(tool, arguments)`` of the calls this turn made, in order.
        results: The result text of each of them.
        failed: Whether each of them failed.
        question: The question ("" reads no kind from it).

    Returns:
        ``(tool, arguments)`` with the record's value in its place, or ``None``.
    """
    for i, (tool, arguments) in enumerate(earlier):
        if not failed[i]:
            continue
        texts = {v for v in arguments.values() if isinstance(v, str) and v.strip()}
        found_later = any(
            not failed[j] and other != tool and texts & set(map(str, taken.values()))
            for j, (other, taken) in enumerate(earlier[i + 1 :], start=i + 1)
        )
        if not found_later:
            continue
        moved = texts_in_place(
            tool,
            arguments,
            earlier[:i] + earlier[i + 1 :],
            [r for k, r in enumerate(results) if k != i],
        )
        if moved is None and _kind_asked(question, tool):  # a record names one of its kind
            moved = _kind_in_place(i, earlier, results, failed)
        if moved is not None and (tool, moved) not in earlier[i + 1 :]:
            return tool, moved
    return None


def _kind_asked(question: str, tool: str) -> bool:
    """Whether a question may ask for a thing of the tool's kind: it says the kind, or it is
    written without spaces (its words are not matched to English names), or there is none."""
    return not question or writes_spaceless(question) or says_kind(question, tool)


def _kind_in_place(
    i: int,
    earlier: Sequence[tuple[str, Mapping[str, Any]]],
    results: Sequence[str | None],
    failed: Sequence[bool],
) -> dict[str, Any] | None:
    """The failed call ``i``'s arguments with its one text value replaced by the entity of the
    failed tool's kind that a later record of the same value names (:func:`kind_named`);
    ``None`` when no record names one no call asked yet."""
    tool, arguments = earlier[i]
    texts = [k for k, v in arguments.items() if isinstance(v, str) and v.strip()]
    if len(texts) != 1:
        return None
    value = arguments[texts[0]]
    asked = {str(v).casefold() for _, a in earlier for v in a.values() if isinstance(v, str)}
    for j in range(i + 1, len(earlier)):
        other, taken = earlier[j]
        if failed[j] or other == tool or value not in taken.values():
            continue
        name = kind_named(results[j], tool, results[i])
        if name and name.casefold() not in asked:
            return {**arguments, texts[0]: name}
    return None


def named_next_step(
    earlier: Sequence[tuple[str, Mapping[str, Any]]],
    results: Sequence[str | None],
    failed: Sequence[bool],
    question: str,
    schemas: Mapping[str, Any],
    pick: Callable[[Sequence[str]], str | None] | None = None,
    since: int = 0,
    past_asked: bool = True,
    lone_links: bool = True,
) -> tuple[str, dict[str, Any]] | None:
    """A chain's second step, when its first answered with a record naming the entity the
    question asks about: "Taking the Tansy ferry … there's a lighthouse right next to where it
    lands — how tall is that tower?" answered by the ferry's record, "… lands beside Gannet
    Rock Lighthouse": ``get_lighthouse("Gannet Rock Lighthouse")`` is due.

    A name whose own words do not state its kind ("barrel_supplier: Tamsett Barrel Yard" for
    ``cooperage_record``) is followed too, when it is the only other thing the record names
    (:func:`linked_names`): to the one lookup not answered yet whose kind the question says
    ("kites from one particular workshop" for ``kite_workshop_profile``), else the one its
    Chinese name states (佩利莫尔摩天轮乐园 for ``ferris_park_details``), else the one ``pick``
    chooses among the lookups not answered yet (the model's likeliest name).

    Made when the turn has one answered call whose result is more than a value (a sum beside
    it is no record), and its record names an entity of another offered tool's kind
    (:func:`kind_named`) that takes one required text value; the question
    does not name that entity, no call asked it, no number of the record is the one the
    question's sentence that asks names by its label
    (:func:`~toolkit.local.decision.records.asked_number`: "building" of "Caddow String Works
    rents its building from a hop farm." is no "build" of its luthiers) unless that
    sentence points at the other thing by its kind (:func:`points_at_other`), and the
    question points at it: in Latin letters it says the kind's word ("lighthouse"), in
    Chinese it refers back ("那个果园", "它").

    Args:
        earlier: ``(tool, arguments)`` of the calls this turn made, in order.
        results: The result text of each of them.
        failed: Whether each of them failed.
        question: The user's question.
        schemas: The offered tools' ``parameters`` schemas, by name.
        pick: Chooses one of the named lookups for a name whose words state no kind; ``None``
            follows only names that state their kind.
        since: The index of the last step's first call: when the turn answered several
            records, the one of that step leads on (the rowing club's, after the bowling alley
            asked beside it was answered).
        past_asked: Take the step though the record has the asked number, when the sentence
            that asks points at the other thing (:func:`points_at_other`).
        lone_links: In Chinese, follow a record's one link, and a thing the question speaks
            of after "的" (:func:`_chinese_link`).

    Returns:
        ``(tool, arguments)`` of the step, or ``None``.
    """
    answered = [i for i, bad in enumerate(failed) if not bad and not is_value(results[i])]
    if len(answered) != 1:  # several records: the last step's one, if it answered one
        answered = [i for i in answered if i >= since] if since else []
    if len(answered) != 1:
        return None
    passed = {earlier[answered[0]][0]}
    record = results[answered[0]] or ""
    tool_words = {w for name in schemas for w in name_words(name)}
    asking = asking_sentence(question)
    # The record has what the sentence that asks asks for (not "building"): then only a
    # thing that sentence points at by another kind ("that cellar") is a step further.
    has_asked = asked_number(record, asking, tool_words) is not None or _lone_number_asked(
        record, asking
    )
    asked = {str(v).casefold() for _, a in earlier for v in a.values() if isinstance(v, str)}
    lookups = lookup_keys(schemas)
    latin = not writes_spaceless(question)
    for tool, schema in schemas.items():
        parameter = lone_text_parameter(schema)
        if tool in passed or parameter is None:
            continue
        name = kind_named(record, tool, lookups=lookups, skip=asked)
        if not name or name.casefold() in asked or name.casefold() in question.casefold():
            continue
        if latin and not says_kind(question, tool):
            continue
        if not latin and not (_REFERS_ZH.search(question) or says_its_kind(record, name, question)):
            continue
        if has_asked and not (past_asked and points_at_other(asking, record, name, tool, passed)):
            continue
        return tool, {parameter: name}
    followed = {  # the labels whose link a call took already: each is followed once
        label
        for result, bad in zip(results, failed, strict=False)
        if not bad
        for label, value in chinese_links(result or "")
        if value.casefold() in asked
    }
    used = {earlier[i][0] for i, bad in enumerate(failed) if not bad}
    if not latin and (
        step := _chinese_link(
            record, asked, question, lookups, passed, pick, followed, used, lone=lone_links
        )
    ):
        return step
    if pick is None or has_asked:
        return None
    return _linked_step(record, asked, question, lookups, passed, pick)


def chinese_links(record: str) -> list[tuple[str, str]]:
    """The values a record writes in Chinese under its labels, three characters or more,
    but its own name's: ``("sister_cave", "贝尔沼奶酪窖")`` of ``{"name": "格里斯霍尔特奶酪洞",
    …, "sister_cave": "贝尔沼奶酪窖"}``.

    Args:
        record: A tool's result.

    Returns:
        ``(label, value)`` in the record's order.
    """
    return [
        (label, value.strip())
        for label, value in labelled_texts(record)
        if label.casefold() not in {"name", "title"}
        and writes_spaceless(value)
        and len(value.strip()) >= 3
    ]


def _chinese_link(
    record: str,
    asked: AbstractSet[str],
    question: str,
    lookups: Mapping[str, str],
    passed: AbstractSet[str],
    pick: Callable[[Sequence[str]], str | None] | None,
    followed: AbstractSet[str] = frozenset(),
    used: AbstractSet[str] = frozenset(),
    *,
    lone: bool = True,
) -> tuple[str, dict[str, Any]] | None:
    """The step to the thing a record names in Chinese that the Chinese question points at
    (:func:`named_next_step`): the question refers back or asks which ("这家工作室", "那个姊妹
    窖", "某家玻璃工作室"), and its sentence that asks says the end of the name ("工作室" of
    "洛湄玻璃工作室") or a word of the record's label for it (姊妹 "sister" of
    ``"sister_cave"``, 创始人 "founder" of ``"founder"``). The name is looked up with the tool
    whose kind it states — the record's own tool too (a sister cave is a cave) — else, for a
    person's name written with "·", the one lookup of people, else the one ``pick`` chooses
    among those not answered yet. A label whose link a call took already (``followed``) is
    not followed again: the sister cave's own record names its sister too.

    A question that speaks of a thing of the name's kind after "的" ("鼠尾溪香草园的合作猎鹰
    中心", :func:`_possessed`) points at it as well (:attr:`~ToolPolicy.lone_links_followed`).
    And when the record leads nowhere else — one link, not followed yet — that link is the
    way on, to a tool no call of the turn answered yet (``used``): "清水弦乐坊的首席制琴师当年
    是在哪家琴坊学的手艺？" over a workshop's record whose one link is its master luthier
    "托马斯·奎尔", whom nothing of the question glosses."""
    links = [
        (label, value)
        for label, value in chinese_links(record)
        if value.casefold() not in asked and label not in followed and value not in question
    ]
    asking = asking_sentence(question)
    possessed = lone and any(_possessed(value, question) for _, value in links)
    if not (refers_back(question) or _UNNAMED_ZH.search(question) or possessed):
        return None
    said = set(glossed_terms(asking))
    found = [
        value
        for label, value in links
        if any(value[-size:] in asking for size in (2, 3))
        or {root(w) for w in label_words(label) if len(w) >= 3} & said
    ]
    lone_way = lone and not found and len({value for _, value in links}) == 1
    if lone_way:
        found = [links[0][1]]
    if len(set(found)) != 1:
        return None
    name = found[0]
    tool = kind_of(name, lookups)
    people = [t for t in lookups if t not in passed and PEOPLE.search(f"{t} {lookups[t]}")]
    if tool is None and "·" in name and len(people) == 1:  # "伊内丝·哈尔瓦德": a person's
        tool = people[0]
    if tool is None and pick is not None and not lone_way:
        tool = pick([t for t in lookups if t not in passed])
    if tool is not None and lone_way and tool in used:
        return None  # the one link leads back to a kind the turn looked up: the way ends
    return None if tool is None else (tool, {lookups[tool]: name})


#: The kind-word ending of a name the question speaks of after "的", within a few characters
#: ("鼠尾溪香草园的合作猎鹰中心" of "红隼岭猎鹰中心").
_POSSESSED_SPAN = 6


def _possessed(value: str, question: str) -> bool:
    """Whether the question speaks, after a "的", of a thing ending as ``value`` does (its
    last two characters): a thing of its kind the question does not name."""
    end = re.escape(value[-2:])
    return re.search(rf"的[^，,。？?！!]{{0,{_POSSESSED_SPAN}}}?{end}", question) is not None


#: The words of a lookup of people, in its name or its key's ("person_profile(full_name)").
PEOPLE = re.compile(r"person|people|full_?name|employee|biograph", re.IGNORECASE)


def _lone_number_asked(record: str, asking: str) -> bool:
    """Whether a record's one labelled number is under a label the sentence that asks says:
    "What year was the owner … born?" of ``{"name": "Cuthbert Lowe", "born": 1952,
    "hometown": "Barrowden Quay"}`` (a record of one number, which
    :func:`~toolkit.local.decision.records.asked_number` reads no label of)."""
    labelled = labelled_numbers(record)
    if len(labelled) != 1:
        return False
    return bool({root(w) for w in labelled[0][0] if len(w) >= 3} & word_roots(asking))


def points_at_other(
    asking: str, record: str, name: str, tool: str, passed: AbstractSet[str]
) -> bool:
    """Whether the sentence that asks points back at a thing a record names, of a kind other
    than the record's own: in Latin letters "that" or "this" before a word of the tool's kind
    that no answered tool's kind has ("sells its kelp to a mushroom cellar — what year was
    that cellar founded?" after the kelp farm's record, which has a founding year too); in
    Chinese a word that refers back and the end of the thing's Chinese name
    (:func:`says_its_kind`). A record that has the asked number answers the question unless
    the question points past it so.

    Args:
        asking: The question's sentence that asks.
        record: The answered record.
        name: The thing of ``tool``'s kind the record names.
        tool: The lookup of that kind.
        passed: The tools that answered already.

    Returns:
        True when it does.
    """
    if writes_spaceless(asking):
        return refers_back(asking) and says_its_kind(record, name, asking)
    own = {w for t in passed for w in name_words(t)}
    kind = name_words(tool) - ACTION_WORDS - own
    return any(
        re.search(rf"\b(?:that|this|these|those)\s+(?:\w+\s+)?{re.escape(w)}", asking, re.I)
        for w in kind
    )


def says_its_kind(record: str, name: str, question: str) -> bool:
    """Whether a Chinese question says the kind of a thing a record names without naming it:
    the Chinese name the record writes after the name in brackets ends with a word of two or
    three characters that the question says ("资助行会" of "Quillhaven Guild (羽港行会)"), and
    the question does not write the whole name.

    Args:
        record: A tool's result.
        name: A name the record gives (in capitals).
        question: The user's question.

    Returns:
        True when it does.
    """
    after = record[record.find(name) + len(name) :] if name in record else ""
    chinese = re.match(r"\s*[(（]([\u4e00-\u9fff]{3,})[)）]", after)
    if chinese is None or chinese.group(1) in question:
        return False
    return any(chinese.group(1)[-size:] in question for size in (2, 3))


def _linked_step(
    record: str,
    asked: AbstractSet[str],
    question: str,
    lookups: Mapping[str, str],
    passed: AbstractSet[str],
    pick: Callable[[Sequence[str]], str | None],
) -> tuple[str, dict[str, Any]] | None:
    """The step to the one other thing a record names, of the lookup not answered yet that
    the question's kind word, the name's Chinese name or ``pick`` chooses
    (:func:`named_next_step`)."""
    linked = linked_names(record, asked, question)
    open_tools = [tool for tool in lookups if tool not in passed]
    if len(linked) != 1 or not open_tools:
        return None
    name, chinese = linked[0]
    if not points_past(question, open_tools):
        return None
    latin = not writes_spaceless(question)
    pointed = [tool for tool in open_tools if latin and says_kind(question, tool)]
    if len(pointed) == 1:
        tool: str | None = pointed[0]
    elif chinese and (stated := kind_of(chinese, open_tools)) is not None:
        tool = stated
    else:
        tool = pick(pointed or open_tools)
    return None if tool is None else (tool, {lookups[tool]: name})


def linked_names(
    record: str, asked: AbstractSet[str], question: str
) -> list[tuple[str, str | None]]:
    """The names in capitals a record gives of other things than itself, each with the
    Chinese name written after it in brackets, if any: "barrel_supplier: Tamsett Barrel Yard
    (塔姆塞特桶场)" gives ``("Tamsett Barrel Yard", "塔姆塞特桶场")``.

    The record's own name is left out (the first name, when it comes before the record's
    first number), as are labels ("Growing Rooms: 20"), names a call asked
    (``asked``, case-folded) and names the question writes.

    Args:
        record: A tool's result.
        asked: The text values the turn's calls asked, case-folded.
        question: The user's question.

    Returns:
        ``(name, Chinese name or None)`` in the record's order, each name once.
    """
    first_digit = re.search(r"\d", record)
    found: dict[str, str | None] = {}
    first = True
    for match in _IN_CAPITALS_AT.finditer(record):
        name = re.sub(r"^(?:The|A|An)\s+", "", match.group(0))
        if " " not in name or re.match(r"\s*[:=：]", record[match.end() :]):
            continue  # one word, or a label
        own = first and (first_digit is None or match.start() < first_digit.start())
        first = False
        if own:
            continue  # the record's own name
        folded = name.casefold()
        if folded in asked or folded in question.casefold() or name in found:
            continue
        chinese = re.match(r"\s*[(（]([\u4e00-\u9fff]+)[)）]", record[match.end() :])
        found[name] = chinese.group(1) if chinese else None
    return list(found.items())


#: A run of two to five words in capitals (:func:`~toolkit.local.decision.kinds.
#: names_in_capitals`), read with its place in the record.
_IN_CAPITALS_AT = re.compile(r"(?<![\w'’-])[A-Z][\w'’-]*(?:[ \t]+[A-Z][\w'’-]*){1,4}")


#: A Chinese question that refers back to a thing ("那个果园", "这家工厂", "该站", "它的").
_REFERS_ZH = re.compile(r"[那这](?:个|座|家|片|条|间|所|位|里)|该|它")


def refers_back(question: str) -> bool:
    """Whether a Chinese question refers back to a thing it does not name ("那个船队有多少名
    船员？"): the thing a chain's earlier step leads to."""
    return _REFERS_ZH.search(question) is not None


#: A Chinese question's words for a thing it does not name: "which", "a certain" ("来自哪个采石场",
#: "某座煤矿") beside those that refer back.
_UNNAMED_ZH = re.compile(r"哪(?:个|座|家|片|条|间|所|位|里)|某")


def points_past(question: str, tools: Iterable[str]) -> bool:
    """Whether a question points at a thing it does not name, which a record may lead to: in
    Chinese it refers back or asks which ("那家酒厂", "哪个采石场", "某座煤矿"); in Latin
    letters it says the kind of one of ``tools`` ("that rink" for ``get_ice_rink``).

    Args:
        question: The user's question.
        tools: The tools whose kind may be the thing's (those not answered yet).

    Returns:
        True when it does.
    """
    if writes_spaceless(question):
        return refers_back(question) or _UNNAMED_ZH.search(question) is not None
    return any(says_kind(question, tool) for tool in tools)


#: A name written in capitals, up to five words ("Gannet Rock Lighthouse").
_CAPITALISED = r"(?:[A-Z][\w'’.-]*\s+){1,4}"


def kind_named(
    record: str | None,
    tool: str,
    refusal: str | None = None,
    lookups: Iterable[str] = (),
    skip: AbstractSet[str] = frozenset(),
) -> str | None:
    """The name of an entity of the tool's kind that a record gives: one the tool's refusal
    listed as known ("Known lighthouses: Gannet Rock Lighthouse (塘鹅礁灯塔), …"), or else a
    name in capitals that ends with the words of the tool's name that are no action — all of
    them ("Gorse Lane Bell Foundry" for ``get_bell_foundry``), else the last
    (``get_lighthouse`` reads "lands beside Gannet Rock Lighthouse (塘鹅礁灯塔)" as "Gannet Rock
    Lighthouse"), else, among ``lookups``, a name in capitals whose own words state the tool's
    kind (:func:`~toolkit.local.decision.kinds.kind_of`: "the nearest lighthouse is Saltmere
    Point Light"). A chain's record names the next step's entity so.

    Args:
        record: The later call's result.
        tool: The failed tool's name.
        refusal: The failed call's result.
        lookups: The tools that look things up by name, whose kinds a name is read against.
        skip: Names (case-folded) not to give: those already asked.

    Returns:
        The name, or ``None``.
    """
    text = (record or "").strip()
    if not text or text.casefold().startswith("error"):
        return None
    listed = (refusal or "").rpartition(":")[2]
    for item in re.split(r"[,;，；、]|\bor\b|\band\b", listed):
        name = re.sub(r"\s*[(（][^()（）]*[)）]", "", item).strip(" .。'\"")
        if len(name) > 2 and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE):
            return name
    kind = [p for p in name_parts(tool) if len(p) >= 3 and p.casefold() not in ACTION_WORDS]
    for words in (kind, kind[-1:]):  # the whole kind ("Bell Foundry"), else its last word
        if not words:
            continue
        phrase = r"\s+".join(re.escape(w) for w in words)
        for found in re.finditer(rf"{_CAPITALISED}(?i:{phrase}s?)\b", text):
            if found.group(0).casefold() not in skip:
                return found.group(0)
    lookups = list(lookups)
    if tool not in lookups:
        return None
    for name in names_in_capitals(text):
        if name.casefold() not in skip and kind_of(name, lookups) == tool:
            return name
    return None


def first_step_for(
    earlier: Sequence[tuple[str, Mapping[str, Any]]],
    results: Sequence[str | None],
    failed: Sequence[bool],
) -> tuple[str, dict[str, Any]] | None:
    """The first step of a chain that another value went through, for a value that skipped
    it: "Which has more people, the capital of Japan or the capital of the United Kingdom?"
    made ``get_population("Japan")``, which failed, and ``get_capital("United Kingdom")``,
    whose "London" ``get_population`` then took. Japan goes the same way:
    ``get_capital("Japan")`` is due, unless a call asked it already.

    Args:
        earlier: ``(tool, arguments)`` of the calls this turn made, in order.
        results: The result text of each of them.
        failed: Whether each of them failed.

    Returns:
        ``(tool, arguments)`` of the first step for the failed value, or ``None``.
    """
    asked = {(t, str(v)) for t, a in earlier for v in a.values() if isinstance(v, str)}
    for i, (tool, arguments) in enumerate(earlier):
        texts = [v for v in arguments.values() if isinstance(v, str) and v.strip()]
        if not failed[i] or len(texts) != 1:
            continue
        for j, (first, taken) in enumerate(earlier):
            went_on = results[j] or ""
            keys = [k for k, v in taken.items() if isinstance(v, str) and v.strip()]
            if failed[j] or first == tool or len(keys) != 1 or (first, texts[0]) in asked:
                continue
            passed_on = any(  # the first step's result went on to the failed tool
                not failed[k]
                and t == tool
                and any(
                    isinstance(v, str) and v.strip() and v.casefold() in went_on.casefold()
                    for v in a.values()
                )
                for k, (t, a) in enumerate(earlier)
                if k > j
            )
            if passed_on:
                return first, {**taken, keys[0]: texts[0]}
    return None


def fields_in_place(
    arguments: Mapping[str, Any],
    earlier: Sequence[tuple[str, Mapping[str, Any]]],
    results: Sequence[str | None],
    question: str,
    unused: Sequence[float] = (),
) -> dict[str, Any] | None:
    """A call that combines two fields of one record while records of the same kind wait,
    written with the first field's value of each record: "the Dawn Express, then the Blue
    Whale; the total time?" looked up as two records (journey 95 minutes, fare 68 yuan;
    journey 130 minutes, fare 92 yuan), and the model writes ``add(130, 92)``, one train's
    minutes and its fare; the step meant is ``add(95, 130)``.

    It applies when every number of the call is stated by one successful record of a tool
    (:func:`~toolkit.local.decision.records.labelled_numbers`) and none by the question,
    under two labels or more, while the tool answered other records that state one number
    under the first number's label; the call's numbers, in order, take the records' values
    under that label, in the order the records came — when there are as many as the call
    has places, or the call's numbers are one list. When the record is the only one of its
    tool, the places after the first take the question's unused numbers instead: "the
    Touran for 4 days" looked up as a record (daily rate 289, deposit 5000), and the model
    writes ``multiply(289, 5000)``; the step meant is ``multiply(289, 4)``.

    Args:
        arguments: The call's arguments.
        earlier: ``(tool, arguments)`` of the calls this turn made, in order.
        results: The result text of each of them (``None`` when it has none).
        question: The user's question.
        unused: The question's numbers no call used yet, in its order.

    Returns:
        The new arguments; ``None`` when the call mixes no fields.
    """
    mine = [n for _, n in number_parameters(arguments)]
    if len(mine) < 2 or any(n in known_numbers(question) for n in mine):
        return None
    for kind in _records_by_tool(earlier, results).values():
        holders = [r for r in kind if all(any(v == n for _, v in r) for n in mine)]
        if len(holders) != 1:
            continue
        record = holders[0]
        labels = [next(w for w, v in record if v == n) for n in mine]
        if len(set(labels)) < 2:
            return None
        if len(kind) < 2:  # the only record: the question's unused numbers take the places
            if len(unused) < len(mine) - 1:
                return None
            return _numbers_replaced(arguments, [mine[0], *unused[: len(mine) - 1]])
        values = []
        for other in kind:
            under = [v for w, v in other if w == labels[0]]
            if len(under) != 1:
                return None
            values.append(under[0])
        return _numbers_replaced(arguments, values)
    return None


def _numbers_replaced(arguments: Mapping[str, Any], values: list[float]) -> dict[str, Any] | None:
    """The arguments with their numbers replaced by ``values`` in order: one list of numbers
    becomes the values; single numbers take them one each, when there are as many."""
    lists = [k for k, v in arguments.items() if isinstance(v, list) and all(map(is_number, v))]
    singles = [k for k, v in arguments.items() if is_number(v)]
    replaced = dict(arguments)
    if len(lists) == 1 and not singles:
        replaced[lists[0]] = [plain_number(v) for v in values]
        return replaced
    if lists or len(singles) != len(values):
        return None
    for key, value in zip(singles, values, strict=True):
        replaced[key] = plain_number(value)
    return replaced


#: A record's fields: the words of each number's label, and the number (without its sign).
_Record = list[tuple[frozenset[str], float]]


def _records_by_tool(
    earlier: Sequence[tuple[str, Mapping[str, Any]]], results: Sequence[str | None]
) -> dict[str, list[_Record]]:
    """The fields of this turn's successful results that state two numbers or more, by the
    tool that answered them, in the order they came."""
    found: dict[str, list[_Record]] = {}
    for (tool, _), result in zip(earlier, results, strict=False):
        if result is None or result.strip().casefold().startswith("error"):
            continue
        fields = [(frozenset(w), abs(float(n))) for w, n in labelled_numbers(result)]
        if len(fields) >= 2:
            found.setdefault(tool, []).append(fields)
    return found


def _common_label(numbers: Sequence[float], records: Sequence[_Record]) -> frozenset[str] | None:
    """The one label all the numbers stand under in the records, each in another record."""
    if len(numbers) < 2:
        return None
    common: set[frozenset[str]] | None = None
    for n in numbers:
        labels = {w for record in records for w, v in record if v == n}
        common = labels if common is None else common & labels
    return next(iter(common)) if common and len(common) == 1 else None


def other_field(
    arguments: Mapping[str, Any],
    made: Sequence[Mapping[str, Any]],
    earlier: Sequence[tuple[str, Mapping[str, Any]]],
    results: Sequence[str | None],
) -> bool:
    """Whether an extra call combines the records' values under another label than an
    earlier call of the answer combined: ``sum([110, 95, 600])``, the three pastries'
    weights, beside ``sum([18, 15, 32])``, their prices, for "what will it come to?". The
    question asks one total; the first call the model wrote is its reading of it.

    Args:
        arguments: The extra call's arguments.
        made: The arguments of the answer's earlier calls of the same tool.
        earlier: ``(tool, arguments)`` of the calls this turn made before the answer.
        results: The result text of each of them.

    Returns:
        True for such a call.
    """
    records = [r for kind in _records_by_tool(earlier, results).values() for r in kind]
    if len(records) < 2:
        return False
    mine = [n for _, n in number_parameters(arguments)]
    label = _common_label(mine, records)
    if label is None:
        return False
    for other in made:
        theirs = [n for _, n in number_parameters(other)]
        first = _common_label(theirs, records)
        if first is not None and first != label and len(theirs) == len(mine):
            return True
    return False


def fields_of_one_record(
    arguments: Mapping[str, Any],
    earlier: Sequence[tuple[str, Mapping[str, Any]]],
    results: Sequence[str | None],
    question: str,
) -> bool:
    """Whether a call only combines fields of one record with each other: the game's price
    and its fewest players (``add(199, 2)``), the suite's rate and its guests
    (``multiply(888, 4)``), when the question states none of the numbers (where
    :func:`fields_in_place` writes it again, that call is made instead). Such a call asks
    nothing the question asked: the record itself answers.

    Args:
        arguments: The call's arguments.
        earlier: ``(tool, arguments)`` of the calls this turn made, in order.
        results: The result text of each of them.
        question: The user's question.

    Returns:
        True for such a call.
    """
    mine = [n for _, n in number_parameters(arguments)]
    if len(mine) < 2 or any(n in known_numbers(question) for n in mine):
        return False
    asked = {stem(w) for w in label_words(question) if len(w) >= 4}
    for kind in _records_by_tool(earlier, results).values():
        for record in kind:
            labels = [[w for w, v in record if v == n] for n in mine]
            if all(labels) and len({w for found in labels for w in found}) >= 2:
                # each number's label named ("how many saddles a year does each saddler
                # make?": saddles per year over saddlers) is a combination asked for
                named = all(
                    any({stem(w) for w in label} & asked for label in found) for found in labels
                )
                return not named
    return False
