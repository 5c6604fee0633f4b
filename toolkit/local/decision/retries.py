"""A call that failed at a text value, and the forms of that value worth one more try. Pure.

A lookup tool keys its data one way and the user writes another: "How many widgets are in
stock?" asked as ``get_stock(item="widget")`` of a tool whose data says "widgets", a dish asked
in the plural of a recipe book that keys it in the singular, a title asked with the 《》 it was
quoted in, two items asked in one value ("bolts and gears"). The tool's error comes back; the
small model then answers that nothing could be found — or invents the fact. A person would try
the value once more in another form. :func:`failure_to_retry` finds such a call in the turn's
last step; the decoder writes it again with its strings confined to the other forms of its
values (:func:`forms_of`), and the answer's extra calls may follow it (the gears after the
bolts).
"""

from __future__ import annotations

import difflib
import itertools
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from toolkit.local.decision.grounding import (
    FUNCTION_WORDS,
    arguments_of,
    is_error,
    kind_words,
    lone_text_parameter,
    occurs,
)
from toolkit.local.decision.kinds import place_head
from toolkit.local.decision.mentions import ACTION_WORDS
from toolkit.local.decision.numbers import leaves
from toolkit.local.decision.phrases import MAX_WORDS
from toolkit.local.decision.records import stem
from toolkit.local.decision.turn import (
    failed,
    holds_value,
    last_question,
    step_results,
    turn_calls,
    turn_steps,
)
from toolkit.wire import content_text

__all__ = [
    "failure_to_retry",
    "forms_of",
    "holds_key",
    "is_form_of",
    "keys_held",
    "listed_items",
    "listed_names",
    "named_keys",
    "parts_of",
    "renamed_failures",
    "rerouted_failures",
]

#: A word: letters and digits of any script.
_WORD = re.compile(r"\w+")
#: What is around a value's words: quotes, brackets, spaces.
_ENDS = re.compile(r"^\W+|\W+$")
#: A name with its translation in brackets after it, as records write them ("Wrenfold Quarry
#: (鹪鹩褶采石场)").
_TRANSLATED = re.compile(r"(?P<name>[^()（）]+?)\s*[(（](?P<other>[^()（）]+)[)）]?\s*")
#: What joins the items of a list written as one value ("bolts and gears", "螺丝和螺母").
_JOINER = re.compile(r"(?:\s*(?:[,，、;；&/]|\b(?:and|or)\b|[和与及或])\s*)+", re.IGNORECASE)
#: The words a Chinese question opens with before the name it asks about, copied into the
#: name ("听说奎尔沃斯橄榄油坊": "I hear …").
_LEAD_IN = re.compile(
    r"^(?:听说|据说|请问|问一下|我想知道|想知道|你知道|告诉我|帮我查一下|查一下"
    r"|(?:If|And|But|So|Or|When|Whether|Both|Also|Then)\s+(?=[A-Z]))"
)  # or an English clause's first word before the name: "If Ashburn Forge and …"
#: A name in capitals that a clause in lower case runs on from ("Thornlow pooled their
#: output").
_NAMED_HEAD = re.compile(
    r"(?:[A-Z][\w'’&-]*\s+)*?[A-Z][\w'’-]*(?=\s+(?!(?:of|the|de|la|du|von|van|and|or)\b)[a-z])"
)
#: What separates the items an error message lists ("Plans: Lite / 轻享卡; Smart / 智享卡").
_SEPARATOR = re.compile(r"[,;/:.()\[\]\n，；、。：（）|]+")
#: The quotation marks an error message may put around the value it refused.
_QUOTES = "'\"‘’“”«»《》「」`"
#: A last word in the Latin script, in lower case (a common noun: not "Paris", "North"), long
#: enough to have a plural ending.
_LAST_WORD = re.compile(r"(?<![A-Za-z])([a-z]{3,})$")


def _letters(text: str) -> str:
    """The text's letters and digits, case-folded ("《寒江雪》" → "寒江雪")."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def parts_of(value: str) -> list[str]:
    """The items of a value that lists several ("bolts and gears" → bolts, gears).

    Args:
        value: A text value.

    Returns:
        Its parts when it joins two or more (each with words), else ``[]``.
    """
    parts = [_ENDS.sub("", p) for p in _JOINER.split(value)]
    return parts if len(parts) > 1 and all(_letters(p) for p in parts) else []


def listed_names(value: str, kind: Iterable[str] = ()) -> bool:
    """Whether a value's parts (:func:`parts_of`) are names listed, not one name that holds a
    joining word: three or more ("Brill, Kestle and Dunmore"), two that "or" joins ("Skelwith
    or Varden Ridge"), or two of two capitalised words or more each, joined by a word
    ("Tamsin Sailcloth Loft and Brackwater Sail Company"), none longer than five words, the
    last one's kind or a word of the question after it too ("… and Ostrand bogs", "…
    combined"); "Pride and Prejudice" is one title, "Museum of Modern Art, New York" one
    place.

    Two names of a word each are listed too when the kind after the last, in the plural, is
    the tool's ("Corvallan and Brackenholt peat works" for ``lookup_peat_works``; "Salt and
    Pepper shakers" stays one thing).

    Args:
        value: A text value.
        kind: The words of the looking-up tool's name.

    Returns:
        True when it lists names.
    """
    parts = parts_of(value)

    def named(part: str, last: bool) -> bool:  # capitalised words, a name's joiners aside
        words = part.split()
        if last:  # "… and Ostrand bogs", "… and Brackenholt peat works": the list's kind
            words = words[:1] + _without_kind(words[1:])
        return len(words) <= _LONGEST_NAME and all(
            w[:1].isupper() or not w.isascii() or w in _NAME_JOINERS for w in words
        )

    if not all(named(p, i == len(parts) - 1) for i, p in enumerate(parts)):
        return False  # a sentence's clauses, or words of no name
    if len(parts) >= 3:
        return True
    two = len(parts) == 2 and not re.search(r"[,，、]", value)  # "Museum of Modern Art, New York"
    if two and re.search(r"\bor\b|或", value, re.IGNORECASE):
        return True  # "Skelwith or Varden Ridge": one or the other, two things
    capitalised = [[w for w in p.split() if not w.islower()] for p in parts]
    if two and all(len(words) >= 2 for words in capitalised):
        return True
    # "Corvallan and Brackenholt peat works": the tool's kind after the last, in the plural,
    # is the kind of each
    said = parts[-1].split()[len(capitalised[-1]) :] if two else []
    tool = {stem(w.casefold()) for w in kind}
    return bool(said) and said[-1].endswith("s") and bool({stem(w) for w in said} & tool)


def _without_kind(words: list[str]) -> list[str]:
    """Words without the one or two words in lower case they end with (a kind: "peat
    works", "bogs")."""
    kind = 0
    while (
        kind < 2 and len(words) > kind and words[-1 - kind].isalpha() and words[-1 - kind].islower()
    ):
        kind += 1
    return words[: len(words) - kind]


def listed_by_question(value: str, question: str) -> bool:
    """Whether the question lists a value's parts as items of its own ("between Wrenfield and
    Lirrick" for "Wrenfield, Lirrick"): each beside the next, a list's joiner between them,
    and the value not written whole.

    Args:
        value: A text value.
        question: The user's question.

    Returns:
        True when it does.
    """
    parts = parts_of(value)
    if len(parts) < 2 or value.strip().casefold() in question.casefold():
        return False  # "Paris, France" as the question writes it: one value
    return all(
        re.search(rf"{re.escape(a)}{_JOINER.pattern}{re.escape(b)}", question, re.IGNORECASE)
        for a, b in itertools.pairwise(parts)
    )


#: The most words a name listed with others has.
_LONGEST_NAME = 5
#: The small words a name holds in lower case ("Museum of Modern Art").
_NAME_JOINERS = frozenset("of the de la du von van".split())


def ampersand_name(value: str, question: str) -> str | None:
    """The name the question writes that a value begins and "&" carries on ("Kessly Key &
    Ribbon" of "Kessly Key": the small model cut a name at its "&" as at a list's joiner).

    Args:
        value: A text value a tool refused.
        question: The user's question.

    Returns:
        The whole name, or ``None`` when the question carries the value on with no "&".
    """
    if not value.strip():
        return None
    run = re.search(
        re.escape(value.strip()) + r"\s*&\s*[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*", question
    )
    return run[0] if run is not None else None


def _inflected(value: str) -> list[str]:
    """The value with its last word's number changed ("spring rolls" → "spring roll",
    "berries" → "berry", "widget" → "widgets"), when that word is in lower case."""
    last = _LAST_WORD.search(value)
    if last is None:
        return []
    head, word = value[: last.start()], last.group(1)
    lower = word.casefold()
    if lower.endswith("ies"):
        words = [word[:-3] + "y"]
    elif lower.endswith("es"):
        words = [word[:-2], word[:-1]]
    elif lower.endswith("s") and not lower.endswith("ss"):
        words = [word[:-1]]
    else:
        words = [word + "s"]
    return [head + w for w in words]


#: A character of a script written without spaces (Chinese, Japanese, Korean).
_SPACELESS = re.compile(r"[\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF]")


def is_form_of(value: str, failed_value: str, ratio: float) -> bool:
    """Whether ``value`` is another form of a value a tool refused.

    It is when it differs from it only in case and punctuation ("寒江雪" for "《寒江雪》"), when
    it has as many words and their letters are this close (:class:`difflib.SequenceMatcher`:
    "widgets" for "widget" is 0.92), or when it is one item of a list the value joins
    (:func:`parts_of`: "bolts" for "bolts and gears"). A value that adds words ("in Paris" for
    "Paris"), keeps some words but not an item ("spring" for "spring rolls", "Xiamen" for
    "Xiamen North"), is a run of a script without spaces cut short or run on ("数学和物" or
    "试数学和物理" for "数学和物理") or moved along it ("德尔滚筒修理行是" for "宾德尔滚筒修理
    行"), or is another phrase of the conversation is not.

    Args:
        value: The new call's text value.
        failed_value: The failed call's value in the same place.
        ratio: The least similarity of a slip:
            :attr:`~toolkit.local.decision.policy.ToolPolicy.slip_ratio`.

    Returns:
        True for another form of it.
    """
    if value == failed_value:
        return False
    mine, theirs = _letters(value), _letters(failed_value)
    if not mine or not theirs:
        return False
    if mine == theirs:
        return True
    same_length = len(_WORD.findall(value)) == len(_WORD.findall(failed_value))
    # In a script written without spaces a run cut short or run on ("林小雨这" for "林小雨")
    # is a piece of the text around it, not a slip of its characters.
    spaceless = bool(_SPACELESS.search(mine + theirs))
    cut = (mine in theirs or theirs in mine) and spaceless
    if spaceless:  # a slip keeps its characters' places; "德尔滚筒修理行是" is the run moved on
        same = len(mine) == len(theirs)
        slipped = same and sum(map(str.__eq__, mine, theirs)) / len(mine) >= ratio
    else:
        slipped = difflib.SequenceMatcher(None, mine, theirs).ratio() >= ratio
    if same_length and not cut and slipped:
        return True  # a slip within its words
    return mine in {_letters(p) for p in parts_of(failed_value)}


def listed_items(error: str) -> list[str]:
    """The short items an error message lists: the known values a careful tool names when it
    refuses one ("Plans: Lite / 轻享卡; Smart / 智享卡; Senior Care / 长者卡").

    Args:
        error: The refusal's text.

    Returns:
        Its pieces between separators of :data:`MAX_WORDS` words or fewer, in order.
    """
    pieces = (_ENDS.sub("", p) for p in _SEPARATOR.split(error))
    return [p for p in dict.fromkeys(pieces) if p and len(_WORD.findall(p)) <= MAX_WORDS]


def _names(item: str, value: str) -> bool:
    """Whether a listed item holds the value's words, in order, and more ("Senior Care" for
    "Senior"), and is not the refusal quoting the value."""
    quoted = re.escape(value)
    if re.search(f"[{_QUOTES}]\\s*{quoted}|{quoted}\\s*[{_QUOTES}]", item):
        return False  # the refusal quoting the value ("Unknown city 'Paris'")
    words = [w.casefold() for w in _WORD.findall(item)]
    theirs = [w.casefold() for w in _WORD.findall(value)]
    n = len(theirs)
    return 0 < n < len(words) and any(words[i : i + n] == theirs for i in range(len(words) - n + 1))


#: A pair of characters of a script written without spaces ("家庭" of "家庭套房").
_PAIR = re.compile(r"(?=([\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF]{2}))")


def _shared(item: str, value: str) -> list[str]:
    """The pieces a listed item and a refused value have in common ("suite" of "family
    suite" and "家庭 suites", "家庭" of "家庭套房" and "家庭 suites"): its words of three letters
    or more that the value holds, in any number, and its pairs of characters of a script
    written without spaces that the value holds."""
    text = value.casefold()
    words = [w for w in _WORD.findall(item.casefold()) if len(w) >= 3 and not w.isdigit()]
    return [w for w in words if occurs(w, text)] + [p for p in _PAIR.findall(item) if p in value]


def named_keys(error: str, value: str, asked: str) -> list[str]:
    """The keys a refusal lists that the user's own words name, for a value the model wrote in
    other words: "Family Suite" of "Room types: 标准间 (Standard Room), 家庭套房 (Family
    Suite)" after ``get_room_rate("家庭 suites")``, asked about "Family Suites"; "Copper Canyon"
    and "Lantern Harbor" after a title that ran the two together with words of the tool's
    description. A tool that lists what it knows is the authority on its keys, and the user's
    words say which of them is meant.

    An item counts when the user's words hold it (:func:`~toolkit.local.decision.grounding.
    occurs`, case-folded: a plural ending is the same key; or its letters, six or more, with
    spaces and hyphens aside: "Cloudtop Loop" for "Cloud-Top loop") and it has a word in
    common with the refused value. When no item is held whole, the items that hold all the
    words of a value the user wrote, and more, count: "Butter Croissant" for "croissant" (not
    "Copper Canyon" for "Copper Kettle").
    The pieces of the refused value the error quotes back are not items.

    Args:
        error: The refusal's text.
        value: The refused text value.
        asked: The user's messages of this turn.

    Returns:
        The named items, in the refusal's order.
    """
    quoted = f"[{_QUOTES}]\\s*{re.escape(value)}\\s*[{_QUOTES}]"
    unquoted = re.sub(quoted, " ", error, flags=re.IGNORECASE) if value else error
    text = asked.casefold()
    items = [
        (item, shared)
        for item in listed_items(unquoted)
        if len(_letters(item)) >= 2 and _letters(item) != _letters(value)
        for shared in [_shared(item, value)]
        if shared
    ]
    letters = _letters(asked)
    whole = [
        item
        for item, _ in items
        if occurs(item.casefold(), text) or (len(_letters(item)) >= 6 and _letters(item) in letters)
    ]
    return whole or [item for item, _ in items if _holds(item, value) and occurs(value, text)]


def _holds(item: str, value: str) -> bool:
    """Whether a listed item holds all of a value's words and more ("Butter Croissant" holds
    "croissant", "流瑜伽" holds "瑜伽"; "Copper Canyon" does not hold "Copper Kettle")."""
    mine, theirs = _letters(item), _letters(value)
    if _SPACELESS.search(theirs):
        return theirs in mine and theirs != mine
    return _names(item, value)


def forms_of(
    value: str,
    phrases: Sequence[str],
    ratio: float,
    listed: Sequence[str] = (),
    named: Sequence[str] = (),
    question: str = "",
) -> list[str]:
    """The forms of a refused value worth trying: a name copied with its translation in
    brackets, each on its own ("Wrenfold Quarry (鹪鹩褶采石场)" → "Wrenfold Quarry",
    "鹪鹩褶采石场"); else the value without the quotes or brackets
    around it ("《寒江雪》" → "寒江雪"), the items it lists (:func:`parts_of`) or else its last
    word in the other number ("spring roll" for "spring rolls"), and the conversation's phrases
    that are forms of it (:func:`is_form_of`: "widgets" for "widget", where the user wrote
    "widgets"), and the items of the refusal's listing that hold its words (:func:`listed_items`:
    "Senior Care" for "Senior") — or, when there are any, only the listed keys the user's
    words name (:func:`named_keys`: "Family Suite" for "家庭 suites", asked about "Family
    Suites"; not the value's own plural "家庭 suite"), of them only those the value holds
    when it holds any ("缠线木偶剧场" of "包下缠线木偶剧场": "book out" written into the name,
    asked beside two other theatres the refusal lists too).

    Args:
        value: A text value a tool refused.
        phrases: The conversation's phrases
            (:func:`~toolkit.local.decision.phrases.conversation_phrases`).
        ratio: :attr:`~toolkit.local.decision.policy.ToolPolicy.slip_ratio`.
        listed: The refusal's items (:func:`listed_items`).
        named: The refusal's keys the user names (:func:`named_keys`).
        question: The user's messages of the turn: a name's first words they write as they
            are, when they never write it whole (:func:`_written_head`), are a form.

    Returns:
        The forms, without the value itself.
    """
    if named:  # the tool's own keys, named: those the value holds, when it holds any
        inside = [k for k in named if holds_key(value, [k])]
        return inside or [f for f in dict.fromkeys(named) if f != value]
    translated = _TRANSLATED.fullmatch(value)
    if translated:  # a record's name copied with its translation: each on its own
        return [f for f in (translated["name"].strip(), translated["other"].strip()) if f]
    bare, parts = _LEAD_IN.sub("", _ENDS.sub("", value)), parts_of(value)
    head = _name_before_clause(bare)  # "Thornlow" of "Thornlow pooled their output"
    if head is not None and not parts:
        bare = head
    own = [bare, *(parts or _inflected(bare))]  # a list's items, or the one item's number
    written = _written_head(bare, question)  # "Lorrimer" of "Lorrimer Water Marina"
    if written is not None and not parts:
        own.append(written)
    others = [
        *(p for p in phrases if is_form_of(p, value, ratio)),
        *(item for item in listed if _names(item, value) or is_form_of(item, value, ratio)),
    ]
    if parts:  # of a list's items, no phrase or refusal's item that lists some of them again
        others = [other for other in others if not parts_of(other)]  # "Kestrel and Dunmore"
    found = [*own, *others, *named]
    return [f for f in dict.fromkeys(found) if f and f != value]


def holds_key(value: str, keys: Sequence[str]) -> bool:
    """Whether a refused value holds one of the keys its refusal lists whole, as
    "包下芦岸船屋" ("book out" written before "芦岸船屋") does: that key is the form to try,
    not a cut of the value.

    Args:
        value: The refused value.
        keys: The keys the refusal lists that the user names (:func:`named_keys`).

    Returns:
        True when one of them is inside it.
    """
    return any(k != value and k.casefold() in value.casefold() for k in keys)


def keys_held(value: str, keys: Sequence[str]) -> list[str]:
    """The keys its refusal lists that a refused value holds whole, when it holds two or
    more: "Oatridge Dairy and of Brackenford Dairy all rode in a single coach" holds
    "Oatridge Dairy" and "Brackenford Dairy" — the model wrote the question's span for two
    names, each of which the tool answers.

    Args:
        value: The refused value.
        keys: The keys the refusal lists that the user names (:func:`named_keys`).

    Returns:
        The keys held, in the order the value writes them; ``[]`` when fewer than two.
    """
    folded = value.casefold()
    held = [k for k in dict.fromkeys(keys) if holds_key(value, [k])]
    # a key inside another held key ("Oat Dairy" in "Oatridge Dairy") is not one of its own
    held = [k for k in held if not any(k != o and k.casefold() in o.casefold() for o in held)]
    held.sort(key=lambda k: folded.find(k.casefold()))
    return held if len(held) >= 2 else []


def _written_head(value: str, text: str) -> str | None:
    """The longest run of a name's first words, in capitals, that the user's text writes as
    it is when it never writes the name whole so ("Lorrimer" of "Lorrimer Water Marina",
    asked "Mooring at Lorrimer vs Tamsin Water Marina"; "Pellucid" of "Pellucid Barge", asked
    about "the Pellucid barge"): the model added words the user never said."""
    words = value.split()
    if len(words) < 2 or not words[0][:1].isupper() or _written(value, text):
        return None
    for end in range(len(words) - 1, 0, -1):
        head = " ".join(words[:end])
        if all(w[:1].isupper() for w in words[:end]) and _written(head, text):
            return head
    return None


def _written(name: str, text: str) -> bool:
    """Whether a text writes a name as it is, as whole words."""
    return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text) is not None


def failure_to_retry(
    messages: Sequence[Mapping[str, Any]], asked: str = ""
) -> tuple[str, dict[str, Any], str] | None:
    """The call of this turn's last step that failed and is worth one more try.

    It is the first call of the last step whose result is an error, that has a text value
    no other call of the turn got an answer for, and whose tool failed only this once in
    this turn (a retry that failed too is not tried again, nor are two refusals of one tool
    in the same step — unless the refusal lists keys the user names for the value,
    :func:`named_keys`: "Blue Whale" after "Blue Whale for Stone Bay" and an invented train
    were refused together; or the question carries the value on with "&":
    :func:`ampersand_name`). A value misread from the question beside the names its tool
    answered for (:func:`misread_name`: "both") is not tried again.

    Args:
        messages: OpenAI messages, ending with the last step's results.
        asked: The user's messages of this turn (for :func:`named_keys`).

    Returns:
        ``(tool, arguments, error)``, or ``None``.
    """
    turn, steps = turn_steps(messages)
    if not steps:
        return None
    answers = {m.get("tool_call_id"): m for m in turn if m.get("role") == "tool"}
    failures: dict[str, int] = {}
    earlier: set[str] = set()  # tools that failed before the last step
    answered: set[str] = set()  # the text values a call of the turn got an answer for
    answered_by: dict[str, list[str]] = {}  # the same, by tool
    for i, message in enumerate(turn):
        for call in message.get("tool_calls") or []:
            result = answers.get(call.get("id"))
            if result is not None and not failed(result):
                values = [v for v in leaves(arguments_of(call)) if isinstance(v, str)]
                answered |= set(values)
                answered_by.setdefault(call["function"]["name"], []).extend(values)
            if result is not None and failed(result):
                name = call["function"]["name"]
                failures[name] = failures.get(name, 0) + 1
                if i < steps[-1]:
                    earlier.add(name)
    for call in turn[steps[-1]].get("tool_calls") or []:
        result = answers.get(call.get("id"))
        name = call["function"]["name"]
        if result is None or not failed(result) or name in earlier:
            continue
        arguments = arguments_of(call)
        texts = [v for v in leaves(arguments) if isinstance(v, str) and v.strip()]
        if texts and set(texts) <= answered:
            continue  # another tool answered for the value ("Larkspur lift" of the lift tool)
        own = answered_by.get(name, [])
        if texts and all(misread_name(v, own, asked) for v in texts):
            continue  # "both" beside the names the tool answered for: nothing was asked
        error = content_text(result.get("content"))
        if texts and (
            failures.get(name, 0) == 1
            or any(named_keys(error, v, asked) for v in texts)
            or any(ampersand_name(v, asked) or _slipped_in(v) for v in texts)
            or any(_written_head(v, asked) or place_head(v) for v in texts)
        ):  # "Kessly Key" of "… & Ribbon"; "If Ashburn Forge", "Thornlow pooled their output";
            # "Pellucid Barge" of "the Pellucid barge"; "芬尼克船壳坊造的独木舟"
            return name, arguments, error
    return None


def misread_name(value: str, answered: Sequence[str], question: str) -> bool:
    """Whether a value a lookup refused names no thing the question names, beside the values
    its tool answered for: a piece of an answered one or an answered one with more
    ("布拉克韦尔蔓越莓" beside "布拉克韦尔", "啤酒花园" beside "黑泽尔比啤酒花园"), a word of
    Latin letters written with no capital where the answered names have one ("both" beside
    "Marlowe Shell Haven"), or a thing of theirs the question writes after them and a 的
    ("待修钟表" of "奎伦钟表坊、佩洛里父子钟表行和邓马罗钟表所手上积压的待修钟表").

    Args:
        value: The refused value.
        answered: The text values the same tool answered for in the turn.
        question: The user's question.

    Returns:
        True when it was misread from the question, not asked.
    """
    value = value.strip()
    if not answered or not value:
        return False
    if any(value in o or o in value for o in answered if min(len(value), len(o)) >= 2):
        return True
    lower = re.fullmatch(r"[a-z][a-z ]*", value) is not None
    if lower and all(re.search(r"[A-Z]", other) for other in answered):
        return True
    at = question.find(value)
    if at > 0 and question[at - 1] == "的":  # a thing of the names before it
        return all(0 <= question.find(other) < at for other in answered)
    return False


def _slipped_in(value: str) -> bool:
    """Whether a refused value holds a name with words of the question around it: a clause's
    first word before it ("If Ashburn Forge") or a clause after it ("Thornlow pooled their
    output")."""
    bare = _ENDS.sub("", value)
    return _LEAD_IN.match(bare) is not None or _name_before_clause(bare) is not None


def _name_before_clause(value: str) -> str | None:
    """The name in capitals a value opens with when the rest is a clause in lower case
    ("Thornlow" of "Thornlow pooled their output"; not "Blue Whale" of "Blue Whale for Stone
    Bay", nor "Museum" of "Museum of Modern Art")."""
    head = _NAMED_HEAD.match(value)
    if head is None or re.search(r"[A-Z]", value[head.end() :]):
        return None
    return head[0]


def renamed_failures(messages: Sequence[Mapping[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """The calls of this turn's last step that failed at one text value, each asked again
    with the one key its refusal lists that the user's words name for it (:func:`named_keys`;
    of several, the one that holds the value whole) — when two or more of them have one.
    Asked about three lifeboat stations, the small model wrote each name a character short
    ("凯斯特尔角救生艇" for "凯斯特尔角救生艇站"), and a retry of the first alone left the
    other two at their errors. Keys asked already are not asked again.

    Args:
        messages: OpenAI messages, ending with the last step's results.

    Returns:
        ``(tool, arguments)`` of each call to make; empty when fewer than two are due.
    """
    turn, steps = turn_steps(messages)
    if not steps:
        return []
    asked = last_question(messages)
    answers = {m.get("tool_call_id"): m for m in turn if m.get("role") == "tool"}
    made = {
        (c["function"]["name"], v.casefold())
        for m in turn
        for c in m.get("tool_calls") or []
        for v in leaves(arguments_of(c))
        if isinstance(v, str)
    }
    due: list[tuple[str, dict[str, Any]]] = []
    for call in turn[steps[-1]].get("tool_calls") or []:
        result = answers.get(call.get("id"))
        if result is None or not failed(result):
            continue
        name, arguments = call["function"]["name"], arguments_of(call)
        texts = [(k, v) for k, v in arguments.items() if isinstance(v, str) and v.strip()]
        if len(texts) != 1:
            continue
        key, value = texts[0]
        named = named_keys(content_text(result.get("content")), value, asked)
        if len(named) > 1:  # the key that holds the value written short
            named = [k for k in named if value.strip().casefold() in k.casefold()]
        if len(named) != 1 or (name, named[0].casefold()) in made:
            continue
        made.add((name, named[0].casefold()))
        due.append((name, {**arguments, key: named[0]}))
    return due if len(due) >= 2 else []


def rerouted_failures(
    messages: Sequence[Mapping[str, Any]], tools: Sequence[Mapping[str, Any]] = ()
) -> list[tuple[str, dict[str, Any]]]:
    """The values this turn's calls of one tool failed at, asked of the tool they belong to.

    Asked about three caves, the small model looks all three up with the bridge tool, which
    knows none; then it asks the cave tool about the first, which answers — and it leaves the
    other two at their errors. Asked about "the Larkspur lift", it asks the hut tool. A person
    would ask the tool the value belongs to. A value belongs to tool B when a call of B with
    another value a failed call held succeeded — that value, or one holding it whole with words
    added ("星井 Observatory" for "星井") — (each other failed call of the same tool, with
    one text value, is then B's call with that value in its place), or when the value names
    what B is about and not what the failed tool is (a word of the value is a word of B's
    name, :func:`~toolkit.local.decision.grounding.kind_words`, and not of the failed
    tool's: "Larkspur lift" and ``get_ski_lift``; B takes one required text value). Nothing
    is asked twice, nor a value another call answered for.

    Args:
        messages: OpenAI messages.
        tools: The offered tools (OpenAI tools), for the kinds their values are of.

    Returns:
        ``(tool, arguments)`` of the calls to make, in the order the failures came.
    """
    calls, answers = turn_calls(messages)
    done = [
        (call["function"]["name"], arguments_of(call), answer)
        for call, answer in zip(calls, answers, strict=True)
    ]
    failures = [(t, a) for t, a, r in done if r is not None and is_error(r)]
    answered = [(t, a) for t, a, r in done if r is not None and not is_error(r)]
    said = {v for _, a in answered for v in a.values() if isinstance(v, str)}
    asked = {(t, json.dumps(a, sort_keys=True)) for t, a, _ in done}
    found: list[tuple[str, dict[str, Any]]] = []

    def add(tool: str, arguments: dict[str, Any]) -> None:
        call = (tool, arguments)
        if (tool, json.dumps(arguments, sort_keys=True)) not in asked and call not in found:
            found.append(call)

    for tool, arguments in answered:
        own = _text_value(arguments)
        if own is None:
            continue
        key, value = own
        sources = {
            t
            for t, a in failures
            if t != tool and (failed := _text_value(a)) and holds_value(value, failed[1])
        }
        for failed_tool, failed_arguments in failures:
            other = _text_value(failed_arguments)
            if (
                failed_tool in sources
                and other is not None
                and not any(holds_value(v, other[1]) for v in said)
            ):
                add(tool, {**arguments, key: other[1]})
    kinds = {name: _kind(tool) for tool in tools for name in [tool["function"]["name"]]}
    lone = {name: key for tool in tools for name, key in [_lone_text(tool)] if key}
    for failed_tool, failed_arguments in failures:
        other = _text_value(failed_arguments)
        if other is None or any(holds_value(v, other[1]) for v in said):
            continue
        words = {w.casefold() for w in _WORD.findall(other[1]) if len(w) >= 3}
        words -= kinds.get(failed_tool, set())
        for name, key in lone.items():
            if name != failed_tool and words & kinds[name]:
                add(name, {key: other[1]})
    # A step's values one tool knew none of, beside one another tool answered for: asked of
    # that tool ("佩林厄姆钟绳坊" and "吉尔德摩尔钟绳工坊" of the bagpipe tool, beside
    # "斯塔夫克罗斯绳阁" the bell-rope tool answered).
    knowing = {t for t, _ in answered}
    for step in step_results(messages):
        beside = {c["function"]["name"] for c, r in step if r is not None and not is_error(r)}
        if len(beside) != 1:
            continue
        (tool,) = beside
        for call, result in step:
            failed_tool, other = call["function"]["name"], _text_value(arguments_of(call))
            if result is None or not is_error(result) or other is None or tool not in lone:
                continue
            if failed_tool not in knowing and not any(holds_value(v, other[1]) for v in said):
                add(tool, {lone[tool]: other[1]})
    return found


def _text_value(arguments: Mapping[str, Any]) -> tuple[str, str] | None:
    """A call's one text argument, ``None`` unless it has exactly one."""
    texts = [(k, v) for k, v in arguments.items() if isinstance(v, str) and v.strip()]
    return texts[0] if len(texts) == 1 else None


def _kind(tool: Mapping[str, Any]) -> set[str]:
    """The words that say what a tool is about: its name's but those that say how it works
    ("ski", "lift" of ``get_ski_lift``), each also without a plural ending."""
    name = (tool.get("function") or {}).get("name", "")
    return {w for w in kind_words(name) - FUNCTION_WORDS - ACTION_WORDS if len(w) >= 3}


def _lone_text(tool: Mapping[str, Any]) -> tuple[str, str | None]:
    """A tool's name and its one required parameter, when that is its only required one and
    takes text (``None`` otherwise)."""
    function = tool.get("function") or {}
    return function.get("name", ""), lone_text_parameter(function.get("parameters"))
