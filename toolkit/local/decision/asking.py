"""What a question asks of the values its calls look up: an order (:func:`asked_order`:
"Which is colder?", "哪条更长？"), a combination (:func:`asks_combination`: a total, an
average, a difference, a ratio), a difference (:func:`asks_difference`), or each value on its
own (:func:`asks_each`). Pure: read from the question's words alone, before or after any
result, by the steps that compare results (:mod:`~toolkit.local.decision.comparison`),
combine them (:mod:`~toolkit.local.decision.combining`) or judge a call
(:mod:`~toolkit.local.decision.turn`).
"""

from __future__ import annotations

import re

from toolkit.local.decision.numbers import numbers_for_calls, word_numbers

__all__ = [
    "LARGER_SMALLER_EN",
    "LARGER_SMALLER_ZH",
    "asked_order",
    "asked_parts",
    "asks_arithmetic",
    "asks_combination",
    "asks_difference",
    "asks_each",
    "asks_unordered_difference",
    "says_difference",
]

#: English words asking for the larger value, then for the smaller one (comparative and
#: superlative forms).
_LARGER_EN = (
    "higher taller bigger larger greater more longer warmer hotter older heavier faster "
    "richer farther further deeper wider busier costlier pricier later newer "
    "highest tallest biggest largest greatest most longest warmest hottest oldest heaviest "
    "fastest richest farthest furthest deepest widest busiest latest newest quicker quickest"
)
_SMALLER_EN = (
    "lower shorter smaller less fewer colder cooler younger lighter cheaper slower poorer "
    "closer nearer shallower narrower earlier sooner "
    "lowest shortest smallest least fewest coldest coolest youngest lightest cheapest "
    "slowest poorest closest nearest shallowest narrowest earliest soonest"
)
#: Chinese adjectives of the larger and the smaller value, asked with 更 (more), 最 (most),
#: 较 (rather) or 得 ("卖得少": sold less).
_LARGER_ZH = "高 长 久 大 多 暖和 暖 热 贵 重 快 老 远 深 宽 富 晚 迟"
_SMALLER_ZH = "低 短 小 少 冷 凉快 凉 便宜 轻 慢 年轻 近 浅 窄 穷 早"


def _alternatives(words: str) -> str:
    """A regex alternation of the words, the longest first ("暖和" before "暖")."""
    return "|".join(sorted(words.split(), key=len, reverse=True))


#: The comparison words of each language as one regex alternation (a difference asked for:
#: "how much deeper", "比……大多少").
LARGER_SMALLER_EN = _alternatives(f"{_LARGER_EN} {_SMALLER_EN}")
LARGER_SMALLER_ZH = _alternatives(f"{_LARGER_ZH} {_SMALLER_ZH}")

_EN = re.compile(
    rf"(?<![a-z])(?:(?P<larger>{_alternatives(_LARGER_EN)})|(?P<smaller>{_alternatives(_SMALLER_EN)}))"
    r"(?![a-z])"
)
_ZH = re.compile(
    rf"(?P<mark>[更最较得])(?:(?P<larger>{_alternatives(_LARGER_ZH)})|(?P<smaller>{_alternatives(_SMALLER_ZH)}))"
)

#: A Chinese "which" question that ends in the adjective alone ("哪家每周做的伞多？"), not in
#: "多少" (how many).
_ZH_BARE = re.compile(
    rf"(?P<mark>)哪[^，,。？?！!；;]*?(?:(?P<larger>{_alternatives(_LARGER_ZH)})(?!少)"
    rf"|(?<!多)(?P<smaller>{_alternatives(_SMALLER_ZH)}))(?:一些|一点|些)?[？?]"
)

#: A Chinese comparison with 比 and no 更 ("A的提升高度比B高出多少米？", "A比B多几个？"): the
#: adjective after the thing compared with.
_ZH_THAN = re.compile(
    rf"(?P<mark>)比[^，,。？?！!；;比]{{1,30}}?"
    rf"(?:(?P<larger>{_alternatives(_LARGER_ZH)})|(?P<smaller>{_alternatives(_SMALLER_ZH)}))"
)

#: "Been around the longest", "existed longer": how long a thing has lasted is its age.
_LASTED = re.compile(
    r"(?<![a-z])(?:been around|existed|been in business|been going|been running)"
    r"(?: (?:the|for))? (longer|longest)(?![a-z])"
)


#: "历史更悠久", "哪家开业最久", "年头更长": how long a thing has lasted is its age ("更老").
_ZH_LASTED = re.compile(
    r"(?:历史|年头|存在|经营|开业|创办|成立)[^，,。？?！!；;]{0,4}?(?P<mark>[更最较])为?"
    r"(?:悠久|久远|长久|久|长)"
    r"|(?P<bare>[更最较])为?(?:悠久|久远)"
)


def _as_age_zh(match: re.Match[str]) -> str:
    """The age word of a Chinese lasting phrase: "更老" for "历史更悠久"."""
    return (match["mark"] or match["bare"]) + "老"


def _as_age(match: re.Match[str]) -> str:
    """The age word of a lasting phrase: "older" for "longer", "oldest" for "longest"."""
    return "older" if match.group(1) == "longer" else "oldest"


def asked_order(question: str) -> tuple[str, bool, bool] | None:
    """The comparison a question asks for: its word, whether the larger value answers it, and
    whether the word is a superlative (one of many).

    Args:
        question: The question's text.

    Returns:
        ``(word, larger, superlative)``: ``("colder", False, False)`` for "Which is colder,
        Chengdu or Lhasa?", ``("更长", True, False)`` for "哪条更长？" and for "A比B长多少？";
        ``None`` when it asks for
        none the word lists know.
    """
    aged = _ZH_LASTED.sub(_as_age_zh, question)
    zh = _ZH.search(aged) or _ZH_BARE.search(aged) or _ZH_THAN.search(aged)
    if zh is not None:
        adjective = zh["larger"] or zh["smaller"]
        superlative = zh["mark"] == "最"
        return ("最" if superlative else "更") + adjective, zh["larger"] is not None, superlative
    en = _EN.search(_LASTED.sub(_as_age, question.casefold()))
    if en is None:
        return None
    word = en["larger"] or en["smaller"]
    return word, en["larger"] is not None, word.endswith("est") or word in ("most", "least")


#: A question's words for a difference, in any question ("by how many", "the gap", "相差",
#: "比……大多少", "比……多养了几头").
_DIFFERENCE_WORDS = (
    r"(?<![a-z])(?:difference|differ|by how (?:much|many)|the gap|apart)(?![a-z])"
    rf"|(?<![a-z])how (?:much|many)(?: [a-z]+){{0,3}} (?:{LARGER_SMALLER_EN})(?![a-z])"
    r"|相差|差值|差多少|差几"
    rf"|比[^，。？?,.!！]{{1,30}}?(?:{LARGER_SMALLER_ZH})(?:[了出]|[\u4e00-\u9fff]{{1,2}}了)?(?:多少|几)"
)
#: Things brought into one, whose count is the total of their parts, said without a word for
#: a total: "if the staff of A and of B came to one supper", "at a single table", "merging their
#: herds", "gathered in the same hall", "两家的员工一起去春游", "赶到同一片草场上", "合并成", "if
#: every employee of A and every employee of B turns up, how many …".
_GATHERED = (
    r"(?<![a-z])(?:in|into|at|to|for|on|onto|aboard|under|inside) "
    r"(?:one|a single|the same|a shared|a joint|one big|a common)"
    r"(?= [a-z])(?! (?:of|another)(?![a-z]))"
    r"|(?<![a-z])(?:merg(?:e|es|ed|ing)|pool(?:s|ed|ing)?|amalgamat[a-z]*|join(?:s|ed|ing)? forces"
    r"|(?:brought|put|came|come|got|get|gathered|crammed|packed) together)(?![a-z])"
    r"|一起|一块儿?|同一|合并|合在一起|凑在一起|聚在一起|聚到|汇合|合起来"
    # every one of two groups, counted: "if every worker from A and every worker from B
    # turns up, how many seats …?"
    r"|(?<![a-z])(?:every|all)(?![a-z])[^?.!？。！]{3,80}?(?<![a-z])and (?:every|all)(?![a-z])"
    r"(?=[^?？]*(?<![a-z])how (?:many|much)(?![a-z]))"
)


#: A question that asks for the looked-up values combined: a total, an average, a difference,
#: a ratio ("in total", "between them", "A plus B", "how much deeper … than", "by how many", "一共",
#: "比……大多少", "几倍", "多出几个", "高出多少", "哪家更大？大多少吨？", "早成立了多少年？").
#: Words of one value's own ("总部", headquarters; "总是", always) are not totals.
_COMBINATION = re.compile(
    r"(?<![a-z])(?:totals?|in all|altogether|all together|combined|sum|add(?:s|ed)? up|"
    r"together|average|(?:the|a) mean|mean (?:of|value)|ratio|"
    r"how many times|between (?:them|the (?:two|three|four))|(?-i:plus))(?![a-z])"
    r"|总(?![部统是结理监经裁督局])|一共|共计|合计|加起来|加在一起|之和|平均|均值|多少倍|几倍"
    r"|(?<![至最不很许好太])[多少][了出]?(?:多少|几)|(?:高|低|大|小|长|短|深|浅|重|轻)出(?:多少|几)"
    r"|(?:^|[？?，,。！!])\s*(?:高|低|大|小|长|短|深|浅|重|轻|贵|早|晚)"
    r"(?:[了出]|[\u4e00-\u9fff]{1,2}了)?(?:多少|几)"
    rf"|{_DIFFERENCE_WORDS}|{_GATHERED}",
    re.IGNORECASE,
)
#: A question that asks for each value on its own ("各有多少", "分别是多少", "How deep is each
#: mine?", "respectively").
_EACH = re.compile(r"(?<![a-z])(?:each|respectively|individually)(?![a-z])|各(?!种|位)|分别")


def says_difference(question: str) -> bool:
    """Whether a question says in words that it asks by how much values differ ("by how
    many", "相差", "比……多养了几头"), not only by asking for a combination that is no total
    (:func:`asks_difference` reads "Between the two of them, how many weavers…?" as one too).

    Args:
        question: The user's question.

    Returns:
        True when it does.
    """
    return _DIFFERENCE.search(question) is not None


def asks_difference(question: str) -> bool:
    """Whether a question that compares values asks by how much they differ, not for their
    total or average ("Which has more staff, and by how many?", "哪家更大？大多少吨？",
    "How many more runs has A than B?")."""
    if _DIFFERENCE.search(question) is not None:  # "平均卖得更贵？贵多少？": an average price
        return True
    return asks_combination(question) and _TOTAL_OR_MEAN.search(question) is None


#: A question's words that ask for a difference whatever else it says ("the average basket
#: price … by how much?", "平均卖得更贵？贵多少？").
_DIFFERENCE = re.compile(
    _DIFFERENCE_WORDS + r"|(?:^|[？?，,。！!])\s*(?:多|少|高|低|大|小|长|短|深|浅|重|轻|贵|早|晚)"
    r"(?:[了出]|[\u4e00-\u9fff]{1,2}了)?(?:多少|几)",
    re.IGNORECASE,
)


#: A question's words for a total or an average, not a difference.
_TOTAL_OR_MEAN = re.compile(
    r"(?<![a-z])(?:totals?|sum|together|altogether|combined|in all|average|mean)(?![a-z])"
    r"|一共|总(?![部统是结理监经裁督局])|加起来|合计|共计|之和|平均|均值"
    rf"|{_GATHERED}",
    re.IGNORECASE,
)


def asks_combination(question: str) -> bool:
    """Whether a question asks for its looked-up values combined, not stated one by one.

    "How many kilograms of honey is that in total?", "黑水船闸的落差比芬尼克船闸大多少米？",
    "三座盐矿的平均深度": yes. "各有多少个蜂箱？", "Which is deeper?": no — each value is the
    answer, or their order (:mod:`toolkit.local.decision.comparison`).

    Args:
        question: The user's question.

    Returns:
        True when it asks for a total, an average, a difference or a ratio.
    """
    return _COMBINATION.search(question) is not None


def asks_each(question: str) -> bool:
    """Whether a question asks for each looked-up value on its own and for no combination of
    them: "蓟绒养蜂场和蕨岭养蜂场各有多少个蜂箱？", "How deep is each of the three mines?" —
    but not "If they split the total, how much does each pay?".

    Args:
        question: The user's question.

    Returns:
        True when it says "each" (各, 分别, respectively) and asks no total, average,
        difference or ratio (:func:`asks_combination`).
    """
    return _EACH.search(question) is not None and not asks_combination(question)


def asks_arithmetic(question: str) -> bool:
    """Whether a question asks for arithmetic on the values its calls look up: a combination
    (:func:`asks_combination`: a total, a difference, "how many years apart"), an order
    (:func:`asked_order`), what is left ("seats left"), or work with a number of its own, in
    digits or words ("in a 7-day week", "twice a year", "for two nights", "一周"). "How high
    does a boat get lifted at Fennick Lock, and at Wenlow Lock?" asks for none: the looked-up
    values are the answer.

    Args:
        question: The user's question.

    Returns:
        True when it does.
    """
    if asks_combination(question) or asked_order(question) is not None:
        return True
    if _LEFT_OVER.search(question) or _ONE_SPAN_ZH.search(question):
        return True
    return bool(numbers_for_calls(question, True) or word_numbers(question))


#: What is left of a value once another is taken away ("seats left", "remaining", "剩下").
_LEFT_OVER = re.compile(
    r"(?<![a-z])(?:left|remain|remains|remaining|unsold|unused|spare)(?![a-z])|剩|余下|还有多少",
    re.IGNORECASE,
)
#: A Chinese span of one unit of time ("一周", "一个月"), which a rate may be multiplied up to.
_ONE_SPAN_ZH = re.compile(r"一(?:个)?(?:周|星期|礼拜|月|年|季度|天|日|小时)")


def asks_unordered_difference(question: str) -> bool:
    """Whether a question asks a difference in no order ("how many years apart were they
    built?", "相差多少"): :func:`asks_difference` with no :func:`asked_order`. Its answer is
    the larger value less the smaller.

    Args:
        question: The user's question.

    Returns:
        True when it does.
    """
    return asks_difference(question) and asked_order(question) is None


def asked_parts(question: str) -> int:
    """How many quantities a question asks for, one after another: "How many shades does it
    make in a week, and if they're packed 4 to a crate, how many crates does a week's output
    fill?" asks two, "每个架子放几个？如果每个奶酪轮重9公斤，一个架子上的奶酪总共多重？" two,
    "What is 144 divided by 12, plus 7?" one. Each asking word counts ("how many", "how
    much", "what is"; 几, 多少, 多重…), twice in one clause once.

    Args:
        question: The user's question.

    Returns:
        The number of parts asked (0 when no asking word is found).
    """
    clauses = re.split(r"[,;?!，；？！。]|\band\b", question)
    return sum(1 for clause in clauses if _ASKS_QUANTITY.search(clause))


#: A word that asks for a quantity: "how many", "how much", "how long", "what is"; 几, 多少,
#: 多重, 多长, 多久, 多大, 多高, 多远.
_ASKS_QUANTITY = re.compile(
    r"\bhow\s+(?:many|much|long|far|old|tall|high|deep|heavy|big)\b|\bwhat(?:\s+is|'s)\b"
    r"|几(?!乎)|多少|多(?:重|长|久|大|高|远|深|宽|贵)",
    re.IGNORECASE,
)
