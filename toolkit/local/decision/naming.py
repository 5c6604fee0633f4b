"""The name an answer states of the record a chain reached.

"Glimmerford Carousel Works buys its glass panels from a studio. How many metres of lead came
does that studio have?" is answered by the studio's record, found through the carousel
works' one ("glass panels from: Quenby Leadlight Studio"). The question never names the
studio, so an answer that says "The studio has 1425 metres of lead" leaves the asker not
knowing which; the small model wrote such answers for chains it had walked right to the end.
The answer names the record it reached: in the question's script when the record writes its
name in it ("索恩洛铁匠铺" of "Thornlow Ironworks Forge (索恩洛铁匠铺)").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from toolkit.local.decision.grounding import text_values
from toolkit.local.decision.turn import is_error, last_question, step_results

__all__ = ["names_record", "reached_record", "said_name"]

#: A run of Chinese characters, the way a record writes its name in Chinese.
_HAN_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")
#: A record's head, before its first number or colon: where it writes its own names.
_HEAD = re.compile(r"[^\d:：=|{]*")
#: A capitalised word of a name, four letters or more ("Quenby" of "Quenby Leadlight Studio").
_NAME_WORD = re.compile(r"\b[A-Z][a-z]{3,}\b")


def reached_record(messages: Sequence[Mapping[str, Any]]) -> tuple[str, str] | None:
    """The name a chain's last lookup looked up and its record: of this turn's steps of one
    call, the last that looked up one text value a tool answered for, a value the question
    does not write and an earlier result of the turn does ("Quenby Leadlight Studio" after
    "glass panels from: Quenby Leadlight Studio", also when a sum came after it; not
    ``convert_units(41, "F", "F")`` after "41 °F", nor records looked up beside a sum in one
    step).

    Args:
        messages: OpenAI messages.

    Returns:
        ``(name, record)``, or ``None`` when the turn reached no record by a chain.
    """
    question = last_question(messages).casefold()
    earlier: list[str] = []
    reached = None
    for step in step_results(messages):
        made, found = [c for c, _ in step], [r for _, r in step]
        if len(made) == 1 and found[0] is not None and not is_error(found[0]):
            values = [v.strip() for v in text_values(made[0])]
            one = len(values) == 1 and len(values[0]) >= 2  # no units, no city and its unit
            if one and values[0].casefold() not in question:
                if any(values[0].casefold() in text.casefold() for text in earlier):
                    reached = (values[0], found[0])
        earlier += [r for r in found if r is not None and not is_error(r)]
    return reached


def said_name(name: str, record: str, spaceless: bool) -> str:
    """The name as the answer states it: for a question in Chinese, the record's first run of
    Chinese characters when it writes one (its Chinese name), else the name as it was
    looked up.

    Args:
        name: The name the chain's last step looked up.
        record: Its record.
        spaceless: Whether the question is written without spaces (Chinese).

    Returns:
        The name to state.
    """
    if spaceless:
        han = _HAN_RUN.search(record)
        if han is not None:
            return han[0]
    return name


def names_record(answer: str, name: str, record: str) -> bool:
    """Whether an answer names the record: its name whole, its Chinese name, its name's first
    capitalised word of four letters or more ("Quenby"), or such a word of the names the
    record writes before its first number ("Beijing" of "北京 (Beijing): 6 °C").

    Args:
        answer: The answer's text.
        name: The name the chain's last step looked up.
        record: Its record.

    Returns:
        True when the answer names it.
    """
    folded = answer.casefold()
    if name.casefold() in folded:
        return True
    han = _HAN_RUN.search(record)
    if han is not None and han[0] in answer:
        return True
    head = _HEAD.match(record)  # the record's own names: "北京 (Beijing)" of "…: 6 °C"
    words = [*_NAME_WORD.findall(name)[:1], *_NAME_WORD.findall(head[0] if head else "")]
    return any(re.search(rf"\b{word}\b", answer) for word in words)
