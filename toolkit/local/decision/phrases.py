"""The phrases of a conversation that a text argument may be written from. Pure.

A small model asked about Guangzhou in English writes ``get_weather(city="广州")``, about
Shenzhen ``get_population(city="上海")``: a value in a script the question is not written in
(:func:`in_another_script`) — a translation, right or wrong, of the user's words — so the call
is rejected (:func:`~toolkit.local.decision.grounding.ungrounded_values`). Written again with
every text value made of the conversation's own words — a run of one to
:data:`MAX_WORDS` words of a message, or of up to :data:`MAX_CHARS` characters of a script
written without spaces — the call says "Guangzhou" (:func:`conversation_phrases`, the
``phrases`` of :func:`toolkit.local.format.grammar.calls_grammar`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from toolkit.wire import content_text

__all__ = [
    "MAX_CHARS",
    "MAX_PHRASES",
    "MAX_WORDS",
    "asking_sentence",
    "conversation_phrases",
    "in_another_script",
    "other_scripts",
    "slip_of",
    "without_names",
    "writes_spaceless",
]

#: Most words in a phrase of space-separated text ("New York City, NY" is four).
MAX_WORDS = 4
#: Most characters in a phrase of a script written without spaces (Chinese, Japanese).
MAX_CHARS = 8
#: Most phrases offered (the grammar lists each one).
MAX_PHRASES = 600

#: A word of space-separated text ("Tel", "Aviv", "O'Brien", "2026-11-15").
_WORD = re.compile(r"[A-Za-z0-9\u00C0-\u024F]+(?:['.\-][A-Za-z0-9\u00C0-\u024F]+)*")
#: A run of a script written without spaces.
_RUN = re.compile(r"[\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF]+")


#: A letter of the Latin script.
_LATIN = re.compile(r"[A-Za-z\u00C0-\u024F]")


def _scripts(text: str) -> set[str]:
    scripts = (("latin", _LATIN), ("spaceless", _RUN))
    return {name for name, letters in scripts if letters.search(text)}


def writes_spaceless(text: str) -> bool:
    """Whether a text is written, at least in part, in a script without spaces between words
    (Chinese, Japanese, Korean): words of the Latin script are not looked for in it.

    Args:
        text: A question.

    Returns:
        True when it holds a character of such a script.
    """
    return _RUN.search(text) is not None


def other_scripts(value: str, text: str) -> bool:
    """Whether the text uses a script the value does not: "fahrenheit" asked for as "华氏度"
    may be the user's word translated.

    Args:
        value: A text value of a call.
        text: The conversation's text.

    Returns:
        True when a script of the text is none of the value's.
    """
    return bool(_scripts(text) - _scripts(value))


def in_another_script(value: str, text: str) -> bool:
    """Whether a value is written only in scripts the text does not use: "广州" for a question
    in English, "Harbin" for one in Chinese.

    Args:
        value: A text value of a call.
        text: The question.

    Returns:
        True when the value has letters and none of its scripts occurs in the text.
    """
    own = _scripts(value)
    return bool(own) and not own & _scripts(text)


def _phrases(text: str) -> list[str]:
    found: list[str] = []
    words = list(_WORD.finditer(text))
    for i, first in enumerate(words):
        for last in words[i : i + MAX_WORDS]:
            gap = text[first.start() : last.end()]
            if "\n" not in gap:
                found.append(gap)
    for run in _RUN.finditer(text):
        chars = run.group()
        found += [
            chars[i : i + n]
            for i in range(len(chars))
            for n in range(1, MAX_CHARS + 1)
            if i + n <= len(chars)
        ]
    return found


def conversation_phrases(messages: Sequence[Mapping[str, Any]]) -> list[str]:
    """The phrases of the user's messages and the tool results, the latest messages first.

    Args:
        messages: OpenAI messages.

    Returns:
        Distinct phrases, at most :data:`MAX_PHRASES`.
    """
    found: dict[str, None] = {}
    for message in reversed(messages):
        if message.get("role") in ("user", "tool"):
            for phrase in _phrases(content_text(message.get("content"))):
                found.setdefault(phrase)
                if len(found) >= MAX_PHRASES:
                    return list(found)
    return list(found)


def slip_of(
    value: Any, phrases: Sequence[str], ratio: float, taken: Collection[str] = ()
) -> str | None:
    """The phrase a text value is a slip of: "Cater Lake" for the question's "Crater Lake".

    Args:
        value: A text value of a call that the conversation does not mention.
        phrases: The conversation's phrases (:func:`conversation_phrases`).
        ratio: The least similarity (:class:`difflib.SequenceMatcher`'s ratio, case-folded)
            of a slip to its phrase:
            :attr:`~toolkit.local.decision.policy.ToolPolicy.slip_ratio`.
        taken: Values, case-folded, that earlier calls used: a slip of one of them asks
            nothing new.

    Returns:
        The closest such phrase, or ``None``.
    """
    if not isinstance(value, str) or not value.strip():
        return None
    folded = {p.casefold(): p for p in phrases if p.casefold() not in taken}
    close = difflib.get_close_matches(value.casefold(), list(folded), n=1, cutoff=ratio)
    return folded[close[0]] if close else None


#: Where a sentence ends, in either script.
_SENTENCE_END = re.compile(r"(?<=[。！？；])|(?<=[.!?;])\s+(?=[A-Z])")


def asking_sentence(question: str) -> str:
    """The question's last sentence, the one that asks: "那家酒厂有多少名员工？" of
    "哈罗盖特煤矿福利俱乐部的啤酒由一家啤酒厂供应。那家酒厂有多少名员工？" — the sentence
    before it tells the way there, and its words (啤酒, "beer") drew the pick to another
    field of the record ("cloth" of "… sends its cloth out to be dyed. How many vats …?"
    named "yards of cloth per week").

    Args:
        question: The user's question.

    Returns:
        Its last sentence with a question mark (else its last sentence), or the question
        itself.
    """
    sentences = [s.strip() for s in _SENTENCE_END.split(question) if re.search(r"\w", s)]
    asking = [s for s in sentences if s.endswith(("?", "？"))] or sentences
    return asking[-1] if asking else question


def without_names(question: str, names: Sequence[str]) -> str:
    """The question with each of ``names`` that it writes blanked out, the places of its other
    words kept: a name says which record, not which of its fields ("吉拉姆谷铁道模型协会是哪一年
    成立的？": 铁道 "railway track" of the society's name is not its "track length m").

    Args:
        question: The question (or its sentence that asks).
        names: The text values the turn's calls sent.

    Returns:
        The question with each name of two characters or more replaced by spaces as long.
    """
    for name in sorted({n.strip() for n in names}, key=len, reverse=True):
        if len(name) >= 2:
            question = question.replace(name, " " * len(name))
    return question
