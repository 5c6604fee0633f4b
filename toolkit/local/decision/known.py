"""Which lookup a named thing is asked of, by what the tools and the question say. Pure.

A lookup that refuses a name often lists the names it knows ("No record for '暮谷兰园温室里的'.
Known: …, Pellwick Clocks (佩尔维克钟坊)"): when another tool's record then gives one of those
names (``"clock_supplier": "佩尔维克钟坊"``), the tool itself says which of its names the chain
leads to (:func:`refused_kind_named`). And a name whose own words state a lookup's kind
("灰岸盐场" for ``salt_pan_info``) asked of another lookup only, which the question does not ask
about, is still to be asked of its own (:func:`kind_lookups_skipped`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from toolkit.local.decision.chains import is_value, points_past
from toolkit.local.decision.kinds import asks_of_kind, named_things
from toolkit.local.decision.phrases import writes_spaceless
from toolkit.local.decision.records import word_roots

__all__ = ["kind_lookups_skipped", "known_names", "refused_kind_named"]


def known_names(refusal: str | None) -> list[tuple[str, ...]]:
    """The names a refusal lists as its tool's known ones, each with the other form written
    beside it in brackets: "No record for 'X'. Known: Pellwick Clocks (佩尔维克钟坊), Orvane
    Horology (奥尔文钟表社)" gives ``("Pellwick Clocks", "佩尔维克钟坊")`` and the other pair.

    Args:
        refusal: A refused call's result.

    Returns:
        The forms of each listed name, in order; none when the refusal lists no names.
    """
    text = refusal or ""
    head, colon, listed = text.rpartition(":")
    if not colon or not _KNOWN_HEAD.search(head.rsplit(".", 1)[-1]):
        return []
    found: list[tuple[str, ...]] = []
    for item in re.split(r"[,;，；、]|\bor\b", listed):
        bracket = re.search(r"[(（]([^()（）]+)[)）]", item)
        name = re.sub(r"\s*[(（][^()（）]*[)）]", "", item).strip(" .。'\"")
        forms = [f for f in (name, bracket.group(1).strip() if bracket else "") if len(f) > 1]
        if forms:
            found.append(tuple(forms))
    return found if len(found) > 1 else []


#: The words before a refusal's list of what its tool knows ("Known", "Known lighthouses",
#: "Available", "Try one of", "已知").
_KNOWN_HEAD = re.compile(r"known|available|valid|try|one of|已知|可选|可用", re.IGNORECASE)


def _written_in(record: str, form: str) -> bool:
    """Whether a record writes a name: as a whole word in Latin letters, anywhere in a script
    written without spaces."""
    if writes_spaceless(form):
        return form in record
    return re.search(rf"(?<!\w){re.escape(form)}(?!\w)", record, re.IGNORECASE) is not None


def refused_kind_named(
    earlier: Sequence[tuple[str, Mapping[str, Any]]],
    results: Sequence[str | None],
    failed: Sequence[bool],
    question: str,
) -> tuple[str, dict[str, Any]] | None:
    """The step a refusal showed the way to: a lookup refused with the names its tool knows
    ("No record for '暮谷兰园温室里的'. Known: …, Pellwick Clocks (佩尔维克钟坊)"), while a record
    another tool answered gives one of those names (``"clock_supplier": "佩尔维克钟坊"``) that
    no call of the refused tool asked and the question does not write. The question points
    past its first thing to one of that tool's kind ("这家钟表坊一年能造多少座钟？", "the owner
    of the rope walk that supplies Whitlow Flats"), the small model tried the tool with the
    wrong name, and the tool itself says which of its names the record gave: that lookup is
    due, in the form the record writes (its Latin one first), whichever came first, the
    refusal or the record. Without a word of the tool's kind, the question may say the
    record's label for the name ("the owner of the rope walk" for ``"owner": "Cuthbert
    Lowe"``, which the people lookup knows). A record that gives two of the names leads
    nowhere.

    Args:
        earlier: ``(tool, arguments)`` of the calls this turn made, in order.
        results: The result text of each of them.
        failed: Whether each of them failed.
        question: The user's question.

    Returns:
        ``(tool, arguments)`` of the step, or ``None``.
    """
    asked = {(t, str(v).casefold()) for t, a in earlier for v in a.values() if isinstance(v, str)}
    folded = question.casefold()
    for i in reversed(range(len(earlier))):
        tool, arguments = earlier[i]
        texts = [k for k, v in arguments.items() if isinstance(v, str) and v.strip()]
        known = known_names(results[i]) if failed[i] and len(texts) == 1 else []
        if not known:
            continue
        for j in reversed(range(len(earlier))):
            other, taken = earlier[j]
            record = results[j] or ""
            if failed[j] or other == tool or is_value(record):
                continue
            own = {str(v).casefold() for v in taken.values() if isinstance(v, str)}
            given = [
                next(f for f in forms if _written_in(record, f))
                for forms in known
                if any(_written_in(record, f) for f in forms)
                and not any(f.casefold() in own or f.casefold() in folded for f in forms)
            ]
            if len(given) != 1 or (tool, given[0].casefold()) in asked:
                continue
            if points_past(question, [tool]) or _label_asked(record, given[0], question):
                return tool, {**arguments, texts[0]: given[0]}
    return None


def _label_asked(record: str, name: str, question: str) -> bool:
    """Whether the label a record gives a name is a word the question says: "the owner of
    the rope walk" for ``"owner": "Cuthbert Lowe"``."""
    label = re.search(rf"([A-Za-z][A-Za-z_ ]*)[\"']?\s*[:=]\s*[\"']?{re.escape(name)}", record)
    if label is None:
        return False
    return bool((word_roots(label.group(1)) - {"name"}) & word_roots(question))


def kind_lookups_skipped(
    earlier: Sequence[tuple[str, Mapping[str, Any]]],
    results: Sequence[str | None],
    failed: Sequence[bool],
    question: str,
    lookups: Mapping[str, str],
) -> list[tuple[str, dict[str, Any]]]:
    """The names the question gives of a lookup's kind (:func:`~toolkit.local.decision.kinds.
    named_things`: "灰岸盐场、白洼盐滩、马罗湾盐田" for ``salt_pan_info``) that the turn asked of
    another lookup only, which answered, while the question says nothing of that other
    lookup's kind (:func:`~toolkit.local.decision.kinds.asks_of_kind`): asked which of three
    salt pans makes the least salt a year, the small model asked ``opening_hours`` about each
    and answered from the hours. Each such name, asked of its kind's lookup.

    Args:
        earlier: ``(tool, arguments)`` of the calls this turn made, in order.
        results: The result text of each of them.
        failed: Whether each of them failed.
        question: The user's question.
        lookups: The lookups by name, each with its key parameter.

    Returns:
        ``(tool, arguments)`` of each call due, in the question's order; none when none is.
    """
    due: list[tuple[str, dict[str, Any]]] = []
    for name, tool in named_things(question, lookups):
        folded = name.casefold()
        took = [
            i
            for i, (_, arguments) in enumerate(earlier)
            if any(isinstance(v, str) and folded in v.casefold() for v in arguments.values())
        ]
        if not took or any(earlier[i][0] == tool for i in took):
            continue  # not asked, or asked of its own kind's lookup
        others = {earlier[i][0] for i in took if not failed[i] and results[i]}
        if others and not any(asks_of_kind(question, other) for other in others):
            due.append((tool, {lookups[tool]: name}))
    return due
