"""The offered tools a text answer names. Pure.

Asked "I would like to switch my order from pizza to a BURGER." with ``ChaFod`` offered, the
small model, preferring text, writes "To switch your order …, you can call the `ChaFod`
function with the argument "BURGER"." — the call, described instead of made. A text answer
that names an offered tool is the model's own word that the tool fits the question; the
decoder then tries that call, and keeps it only when it is sound (every value one the
conversation gave: :meth:`~toolkit.local.decision.calling.CallWriter.calls` with
``sound_only``), so a tool named beside an answer from recall ("you can use the
`calculate_population_growth` function" to grow a herd of deer) still leaves the text.

A tool is named by its name as the tools give it ("uber.ride"), with dots for underscores or
underscores for dots, or by its name's last dotted part when that part is no plain word
("fetch_data" of "employee.fetch_data", "listExports"): "get" or "search" alone is the
language, not a tool. A text that names a tool in code (a fenced block, markup tags, a JSON
string after a bracket: :func:`writes_out`) is the call written out in a form the parser cannot
read; the decoder decodes calls then, as for a call written out in JSON. A text that opens by
declining ("I'm sorry, but I can't assist with that.": :func:`refuses`) says the model cannot
answer from what it knows; the decoder looks for a sound call then too.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

from toolkit.local.decision.records import name_words, root

__all__ = [
    "ACTION_WORDS",
    "declines_tools",
    "named_tools",
    "question_names",
    "refuses",
    "says_kind",
    "talks_about_tools",
    "writes_out",
]

#: A question that tells the model not to look anything up ("Quick one, nothing to look up:
#: …", "不用查，直接告诉我"). A 别 that ends a word ("分别查一下" "look each up", 区别, 特别)
#: says no "don't".
_DECLINED = re.compile(
    r"\b(?:nothing|no need|don'?t need|do not need) to (?:look (?:anything |it )?up|search|check)"
    r"|\bwithout (?:using |calling |looking )?(?:any )?(?:tools?|functions?|look ?ups?|searching)"
    r"|\b(?:don'?t|do not|no need to) (?:use|call) (?:any |the |a )?(?:tools?|functions?)"
    r"|\b(?:from|off the top of) your (?:own )?(?:memory|head)\b"
    r"|(?:不用|不需要|不必|无需|(?<![分区特个级类告识差辨鉴性派离])别|不要)(?:去)?"
    r"(?:查|搜|调用|用工具|使用工具)",
    re.IGNORECASE,
)


def declines_tools(question: str) -> bool:
    """Whether the question tells the model not to look anything up ("nothing to look up",
    "without using any tools", "from your own memory", "不用查", "不要调用工具"): the user's
    own word that no call is wanted.

    Args:
        question: The user's question.

    Returns:
        True when it does.
    """
    return _DECLINED.search(question) is not None


def _spellings(name: str) -> list[str]:
    """Patterns of the ways a text may write a tool's name: its dots and underscores
    written either way, and its last dotted part when that is no plain word."""
    parts = [name]
    last = name.rsplit(".", 1)[-1]
    if last != name and (("_" in last) or re.search(r"[a-z][A-Z]", last)):
        parts.append(last)
    return [
        "[._]".join(re.escape(piece) for piece in re.split(r"[._]", part))
        for part in parts
        if len(part) > 2
    ]


def _plain_word(name: str) -> bool:
    """Whether a name is a word of the language (lower case letters only: "search")."""
    return bool(re.fullmatch(r"[a-z]+", name))


def named_tools(text: str, tool_names: Iterable[str]) -> list[str]:
    """The offered tools the text names.

    Args:
        text: A text answer.
        tool_names: The offered tools' names.

    Returns:
        The names of the tools named, in the order given.
    """
    found = []
    for name in tool_names:
        if _plain_word(name):
            continue
        if _named_at(name, text) is not None:
            found.append(name)
    return found


def _named_at(name: str, text: str) -> int | None:
    """Where the text's first naming of a tool ends, in any of its spellings; ``None`` when
    it names the tool nowhere."""
    found = [
        m.end()
        for spelling in _spellings(name)
        if (m := re.search(r"(?<![\w.])" + spelling + r"(?![\w]|\.\w)", text))
    ]
    return min(found, default=None)


#: Code around a name: a fenced block, a markup tag, or a JSON list or object it opens.
_CODE = re.compile(r"```|</?[A-Za-z][\w-]*>")
#: A call's values written out after its name: "arguments:" or a parameter set with "="
#: ("motion_final_speed, arguments: initial_speed=25, time=3").
_VALUES_SET = re.compile(r"\b(?:arguments|parameters|args)\s*[:=]|\b[A-Za-z_]\w*\s*=\s*[\w\"'-]")


def writes_out(text: str, tool_names: Iterable[str]) -> list[str]:
    """The offered tools a text answer names in code: inside a fenced block or markup tags
    ("Answer: <function-name>get_service_id</function-name>"), as a JSON string after a
    bracket or a comma (``["calculate_compounded_interest", ...``), or followed by its values
    set ("motion_final_speed, arguments: initial_speed=25, time=3"). Such a text is the call
    written out in a form the parser cannot read, not an answer.

    Args:
        text: A text answer.
        tool_names: The offered tools' names.

    Returns:
        The names of the tools written out, in the order given.
    """
    named = named_tools(text, tool_names)
    if not named:
        return []
    if _CODE.search(text):
        return named
    valued = [name for name in named if _VALUES_SET.search(text, _named_at(name, text) or 0)]
    if valued:
        return valued
    return [
        name
        for name in named
        if any(re.search(r"[\[{,:]\s*\"" + spelling + '"', text) for spelling in _spellings(name))
    ]


#: Words of a text that talk about calling a function: its name, a function to call or use.
_CALL_TALK = re.compile(
    r"\bfunction[- _]?name\b|\bmark the function\b"
    r"|\b(?:call|use|invoke)\s+(?:the\s+|this\s+)?`[^`\n]+`\s+function"
    r"|\bthe following function\b|\bcall any (?:function|tool)\b",
    re.IGNORECASE,
)


def talks_about_tools(text: str, tool_names: Iterable[str]) -> bool:
    """Whether a text answer talks about the tools instead of answering: it writes code or
    markup, a function's name, a function to call or use ("Mark the function as
    "ThinQ_Connect" and call it", "you can use the `math.sin` function"), or names an
    offered tool.

    Args:
        text: A text answer.
        tool_names: The offered tools' names.

    Returns:
        True when it does.
    """
    if _CODE.search(text) or _CALL_TALK.search(text):
        return True
    return bool(named_tools(text, tool_names))


#: Words of a tool's name that say how it works, not what it is about ("get", "find").
ACTION_WORDS = frozenset(
    "get find search retrieve fetch list lookup look query calculate compute check show set "
    "update create make run send add remove delete api tool tools function info details data "
    "the for and with from".split()
)
#: A word of a question, in the Latin script.
_QUESTION_WORD = re.compile(r"[a-z]+")


def _same_word(word: str, other: str) -> bool:
    """Whether two words are one word in two forms: one the other with an ending of up to
    two letters ("eat" and "eats"), or sharing all but their last three letters, four at
    least ("movies" and "movie", "discoverer" and "discovered")."""
    short, long = sorted((word, other), key=len)
    if long.startswith(short) and len(long) - len(short) <= 2:
        return True
    pairs = enumerate(zip(word, other, strict=False))
    shared = next((i for i, (a, b) in pairs if a != b), len(short))
    return shared >= max(4, len(short) - 3)


def says_kind(question: str, tool: str) -> bool:
    """Whether a question says a word of a tool's kind: a word of its name that does not say
    how it works, at the start of a word of the question ("that lock" for
    ``get_canal_lock``), or the kind's maker, whose stem of five letters or more begins the
    word with at most :data:`_MAKER_ENDING` letters after it ("coopers" for
    ``fetch_cooperage``, "bakers" for ``bakery_info``), or two words of the question
    written together ("rope walk" for ``ropewalk_record``).

    Args:
        question: The user's question.
        tool: An offered tool's name.

    Returns:
        True when it does.
    """
    words = name_words(tool) - ACTION_WORDS
    if any(re.search(rf"\b{re.escape(w)}", question, re.IGNORECASE) for w in words):
        return True
    found = _QUESTION_WORD.findall(question.casefold())
    stems = {root(w) for w in found}
    if any(
        len(s) >= 5 and w.startswith(s) and len(w) - len(s) <= _MAKER_ENDING
        for w in words
        for s in stems
    ):
        return True
    joined = {a + b for a, b in itertools.pairwise(found)}  # "rope walk" for ``ropewalk_record``
    return any(len(w) >= _JOINED and j.startswith(w) for w in words for j in joined)


#: The fewest letters of a kind's word that two of the question's words may write apart.
_JOINED = 6


#: The most letters a kind's word has after its maker's stem ("cooper" + "age").
_MAKER_ENDING = 4


def question_names(question: str, tool_names: Iterable[str]) -> list[str]:
    """The offered tools whose names the question says in its own words: every word of the
    name that tells what the tool is about (its words of three letters or more but those that
    say how it works, "get", "find", "search"…) occurs in the question, in some form
    ("Want an order from McDonald's on Uber Eats?" names ``uber.eat.order``; "a movie
    directed by James Gray" names ``Movies_3_FindMovies``).

    Args:
        question: The user's question.
        tool_names: The offered tools' names.

    Returns:
        The names of the tools named, in the order given.
    """
    said = set(_QUESTION_WORD.findall(question.casefold()))
    found = []
    for name in tool_names:
        words = name_words(name) - ACTION_WORDS
        if words and all(any(_same_word(w, s) for s in said) for w in words):
            found.append(name)
    return found


#: The opening of a text that declines to answer: an apology, or "I can't …".
_REFUSAL = re.compile(
    r"^\W*(?:(?:answer|答案?|回答)\s*[:：]\s*)?"  # a label the small model writes first
    r"(?:I'?m sorry|I am sorry|sorry|I apologi[sz]e|unfortunately|I can(?:not|'t|’t)\b"
    r"|I(?:'m| am) (?:not able|unable)|I do(?:n't|n’t| not) have (?:access|the ability)"
    r"|(?:很)?抱歉|对不起|我?(?:无法|不能|没有办法)|我?不(?:知道|清楚|确定))",
    re.IGNORECASE,
)


def refuses(text: str) -> bool:
    """Whether a text answer opens by declining ("I'm sorry, but I can't assist with that.",
    "Unfortunately, I don't have…", "抱歉，我无法…", "Answer: 无法确定"): the model's word that
    it cannot answer from what it knows.

    Args:
        text: The answer.

    Returns:
        True when it declines.
    """
    return _REFUSAL.search(text.strip()) is not None
