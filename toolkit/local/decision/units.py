"""What a word problem's numbers count, and a plan that multiplies a count it should add. Pure.

"每桶蜜酒能装 28 瓶，上周一共酿了 15 桶，后来又从仓库调来 64 瓶。现在总共有多少瓶？" was
planned ``(15 + 64) * 28``: the 64 bottles added to the 15 barrels before the barrels were
turned into bottles. A number's unit is the word it counts ("15 桶", "14 days", "8-hour"),
and a rate's is also what it is per ("28 瓶" after 每桶, "36 cheese wheels a day", "45
candles an hour"). A rate and a count of what it is per go together; so when a plan multiplies
a sum or difference of two numbers by a third, and only one of the two goes with the third,
the other is no count of the same thing: it is added (or taken) after the product —
``15 * 28 + 64``. A rate added to (or taken from) a count of what it is per is a product:
"一瓶香水小样卖35元，今天卖出了12瓶" planned ``35 - 12`` is ``35 * 12`` (a clause's "一瓶" says
what the number after it is per). :func:`regrouped` writes the plan's expression so. A number
without a unit of its own in the clause of the other ("3 hours in the morning and 5 in the
afternoon") counts what that one counts.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from toolkit.local.decision.records import root

__all__ = ["regrouped"]


@dataclass(frozen=True)
class _Counted:
    """What a number of the question counts: its unit, what it is per (a rate), its clause."""

    unit: str | None
    per: str | None
    clause: int


#: A number in digits, with a hyphen's unit ("8-hour") or up to three words after it.
_EN_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?:-([a-z]+))?((?:\s+[a-z]+){0,4})", re.I)
#: Words after a number that say what it is per.
_EN_PER = frozenset({"a", "an", "per", "each", "every"})
#: Words before "a" or "each" that make a number a rate per what follows ("packed 4 to a
#: crate", "6 in each box").
_EN_INTO = frozenset({"to", "in", "into"})
#: The unit a question asks a count of: "how many crates", "装几箱", "多少箱".
_EN_ASKED = re.compile(r"\bhow\s+many\s+([a-z]+)", re.I)
_ZH_ASKED = re.compile(r"(?:几|多少)\s*(?:个)?([\u4e00-\u9fff])")
#: Words after a number that are no unit ("37 of them", "an extra 95 on top").
_EN_NOT_UNITS = frozenset(
    "of on in at to for from and or but more extra than the that this these those it them "
    "we they he she you i is are was were be been straight each every per a an".split()
)
#: A Chinese number and the measure word after it ("15 桶", "28 瓶").
_ZH_NUMBER = re.compile(r"(\d+(?:\.\d+)?)\s*([\u4e00-\u9fff])")
#: 每 and the measure word it is per ("每桶", "每小时").
_ZH_PER = re.compile(r"每\s*(?:个)?([\u4e00-\u9fff])")
#: 一 and a measure word, a clause's "one of them" that a number after it is per ("一瓶香水小样
#: 卖35元": 35 元 per 瓶).
_ZH_ONE = re.compile(
    r"(?<![\d十百千万])一\s*([个只瓶块箱桶袋盒包件条张本台辆棵头匹斤份杯碗把双套天周次位名])"
)
#: A thousands separator between digits ("2,340").
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
#: Where a clause ends.
_CLAUSE = re.compile(r"[,.;:!?，。；：！？]")


def _counted(question: str) -> dict[float, _Counted]:
    """What each number a question writes once in digits counts ("2,340 sheets" is 2340)."""
    question = _THOUSANDS.sub("", question)
    found: dict[float, list[_Counted]] = {}
    ends = [m.start() for m in _CLAUSE.finditer(question)]

    def clause(at: int) -> int:
        return sum(end < at for end in ends)

    if re.search(r"[\u4e00-\u9fff]", question):
        for match in _ZH_NUMBER.finditer(question):
            start = max((e + 1 for e in ends if e < match.start()), default=0)
            per = _ZH_PER.search(question, start, match.start())
            one = _ZH_ONE.search(question, start, match.start())
            per = per or (one if one and one[1] != match[2] else None)
            counted = _Counted(match[2], per[1] if per else None, clause(match.start()))
            found.setdefault(float(match[1]), []).append(counted)
    else:
        for match in _EN_NUMBER.finditer(question):
            unit, per = (root(match[2].casefold()) if match[2] else None), None
            words = match[3].casefold().split()
            for i, word in enumerate(words):
                if word in _EN_PER and i + 1 < len(words):
                    per = root(words[i + 1])
                    break
                if word in _EN_INTO and words[i + 1 : i + 2] and words[i + 1] in _EN_PER:
                    continue  # "4 to a crate": the "a" after says what it is per
                if unit is None and word not in _EN_NOT_UNITS:
                    unit = root(word)
                elif word in _EN_NOT_UNITS and word not in ("a", "an"):
                    break
            found.setdefault(float(match[1]), []).append(_Counted(unit, per, clause(match.start())))
    return {number: counted[0] for number, counted in found.items() if len(counted) == 1}


def _goes_with(number: _Counted, other: _Counted) -> bool:
    """Whether one number is a rate per what the other counts, or the other way round."""
    return bool(
        (other.per and number.unit == other.per) or (number.per and other.unit == number.per)
    )


def _factored(node: ast.BinOp) -> ast.BinOp | None:
    """A sum (or difference) of two products of numbers that share a factor, written as the
    product of the sum: ``(a + b) * c`` for ``a * c + b * c``; ``None`` for any other node."""
    if not isinstance(node.op, ast.Add | ast.Sub):
        return None
    sides = (node.left, node.right)
    if not all(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult) for n in sides):
        return None
    left, right = node.left, node.right
    assert isinstance(left, ast.BinOp) and isinstance(right, ast.BinOp)
    numbers = (left.left, left.right, right.left, right.right)
    if not all(isinstance(n, ast.Constant) for n in numbers):
        return None
    for a, c in ((left.left, left.right), (left.right, left.left)):
        for b, d in ((right.left, right.right), (right.right, right.left)):
            if c.value == d.value:  # type: ignore[attr-defined]
                return ast.BinOp(ast.BinOp(a, node.op, b), ast.Mult(), c)
    return None


def _regroup(node: ast.AST, counted: dict[float, _Counted]) -> ast.AST:
    """The node with each product of a sum (or difference) of two numbers and a third
    regrouped where only one of the two goes with the third, inside first; a sum of two
    products that share a factor is read as that product ("(40 * 6) - (15 * 6)": 15 burnt
    rolls are no rolls an hour, so ``40 * 6 - 15``)."""
    if not isinstance(node, ast.BinOp):
        return node
    node = ast.BinOp(_regroup(node.left, counted), node.op, _regroup(node.right, counted))
    factored = _factored(node)  # "(40 * 6) - (15 * 6)": the 6 multiplies both
    if factored is not None:
        regrouped = _regroup(factored, counted)
        if ast.unparse(regrouped) != ast.unparse(factored):
            return regrouped
    if isinstance(node.op, ast.Add | ast.Sub) and all(
        isinstance(n, ast.Constant) for n in (node.left, node.right)
    ):
        left, right = (counted.get(float(n.value)) for n in (node.left, node.right))  # type: ignore[union-attr]
        if left is not None and right is not None and _goes_with(left, right):
            return ast.BinOp(node.left, ast.Mult(), node.right)  # a rate and what it is per
    if not isinstance(node.op, ast.Mult):
        return node
    for inner, factor in ((node.left, node.right), (node.right, node.left)):
        if not (
            isinstance(inner, ast.BinOp)
            and isinstance(inner.op, ast.Add | ast.Sub)
            and all(isinstance(n, ast.Constant) for n in (inner.left, inner.right, factor))
        ):
            continue
        left, right, by = (counted.get(float(n.value)) for n in (inner.left, inner.right, factor))
        if left is None or right is None or by is None:
            continue
        if left.unit is None and left.clause == right.clause:  # "… and 5 in the afternoon"
            left = _Counted(right.unit, right.per, left.clause)
        if right.unit is None and right.clause == left.clause:
            right = _Counted(left.unit, left.per, right.clause)
        with_left, with_right = _goes_with(left, by), _goes_with(right, by)
        if with_left == with_right:
            continue
        if with_left:
            return ast.BinOp(ast.BinOp(inner.left, ast.Mult(), factor), inner.op, inner.right)
        return ast.BinOp(inner.left, inner.op, ast.BinOp(inner.right, ast.Mult(), factor))
    return node


def _asked_units(question: str) -> set[str]:
    """The units a question asks a count of ("crate" of "how many crates does it fill?")."""
    if re.search(r"[\u4e00-\u9fff]", question):
        return {m[1] for m in _ZH_ASKED.finditer(question)}
    return {root(m[1].casefold()) for m in _EN_ASKED.finditer(question)}


def _per_asked(node: ast.AST, counted: dict[float, _Counted], asked: set[str]) -> ast.AST:
    """The node with each product by a rate per what the question asks a count of written as
    a division by it: "packed 4 to a crate … how many crates?" planned ``14 * 6 * 4`` is
    ``14 * 6 / 4`` — the shades a crate holds divide the shades into crates. A product by
    a count of what the rate is per ("24 瓶 a 箱, 35 箱") stays one."""
    if not isinstance(node, ast.BinOp):
        return node
    node = ast.BinOp(
        _per_asked(node.left, counted, asked), node.op, _per_asked(node.right, counted, asked)
    )
    if not isinstance(node.op, ast.Mult):
        return node
    for rate, other in ((node.right, node.left), (node.left, node.right)):
        if not isinstance(rate, ast.Constant):
            continue
        by = counted.get(float(rate.value))  # type: ignore[arg-type]
        if by is None or by.per is None or by.per not in asked:
            continue
        if isinstance(other, ast.Constant) and (
            (mate := counted.get(float(other.value))) is None  # type: ignore[arg-type]
            or _goes_with(mate, by)
        ):
            continue  # a count of crates times what a crate holds
        return ast.BinOp(other, ast.Div(), rate)
    return node


def regrouped(expression: str, question: str) -> str | None:
    """A plan's expression with a count it multiplied taken out of the product: ``(15 + 64) *
    28`` is ``15 * 28 + 64`` for "每桶蜜酒能装 28 瓶，酿了 15 桶，又调来 64 瓶" (see the module
    docstring).

    Args:
        expression: The plan's expression.
        question: The word problem.

    Returns:
        The expression regrouped; ``None`` when nothing in it is to regroup.
    """
    try:
        tree = ast.parse(expression.strip(), mode="eval").body
    except SyntaxError:
        return None
    counted = _counted(question)
    if not counted:
        return None
    changed = _per_asked(_regroup(tree, counted), counted, _asked_units(question))
    written = ast.unparse(changed)
    return None if written == ast.unparse(tree) else written
