"""The clause of a question that a chain's next step is asked in. Pure.

"帮我算一下：128 加 76，然后把结果除以 4，等于多少？" is a chain: add first, then divide. Read
whole, the small model names ``divide_numbers`` first (0.42 against ``add_numbers``' 0.37): the
last operation the question writes pulls at the first step. Read only up to the clause that
gives the first values ("帮我算一下：128 加 76，"), it names ``add_numbers`` with 1.00. The same
holds for a lookup chain written in sentences ("My parcel SF1029384756 is stuck somewhere.
What's the phone number of the hub it's at?": the hub tool read whole, the tracking tool from
the first sentence), and for a later step: once ``divide(144, 12)`` answered "Divide 144 by 12,
add 7 to that, then multiply the result by 3", the step is the one "add 7 to that" asks for,
not the multiplication the question ends with.

:func:`step_prefix` cuts the question after the clause that states the first number no step
used yet; the decoder asks the model which tool it would name for that prefix and opens the
call with it when the model is sure (:attr:`~toolkit.local.decision.policy.ToolPolicy.
first_clause_threshold`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from toolkit.local.decision.numbers import first_stated

__all__ = ["clause_ends", "step_prefix", "without_conditions"]

#: Punctuation that ends a clause; a full stop only when no digit follows ("26.2" is a number).
_CLAUSE_END = re.compile(r"[，,；;：:。！!？?]|\.(?!\d)")
#: What may trail a question after its last clause, or stand between clauses.
_BETWEEN = " \t\n\"'”’)）」』，,；;：:。.！!？?"


#: Words that open a condition the question sets, not a thing it asks for: "how fast, if it
#: started from rest … due to a constant acceleration"; "the revenue if sales grow 10% while
#: keeping the price the same".
_CONDITION = re.compile(
    r"(?<![^\W\d_])(?:if|while|given|due to|assuming|provided|keeping|because|unless|whereas)"
    r"(?![^\W\d_])",
    re.IGNORECASE,
)
#: What ends a condition besides a clause's punctuation: the question going on to ask more.
_ASKS_AGAIN = re.compile(r"\b(?:and also|also|and then|then|as well as)\b", re.IGNORECASE)


def without_conditions(question: str) -> str:
    """The question without the conditions it sets: each span from a condition word
    ("if", "while", "given", "due to", "keeping", ...) to the end of its clause, or to
    words that ask again ("and also", "then", "as well as"). What is left is what the
    question asks for: in "How much revenue would XYZ make if sales grew 10% while keeping
    the price the same?" the price is a condition, not a second request.

    Args:
        question: The user's question.

    Returns:
        The question with each condition span blanked out.
    """
    parts: list[str] = []
    at = 0
    for opening in _CONDITION.finditer(question):
        if opening.start() < at:
            continue
        parts.append(question[at : opening.start()])
        end = next((e for e in clause_ends(question) if e > opening.end()), len(question))
        again = _ASKS_AGAIN.search(question, opening.end(), end)
        at = again.start() if again else end
        parts.append(" ")
    parts.append(question[at:])
    return "".join(parts)


def clause_ends(text: str) -> list[int]:
    """Where the text's clauses end: just after each clause punctuation mark.

    Args:
        text: A question.

    Returns:
        The positions, in order.
    """
    return [m.end() for m in _CLAUSE_END.finditer(text)]


def step_prefix(question: str, waiting: Iterable[float]) -> str | None:
    """The question up to and with the clause that states the first of the ``waiting``
    numbers, when more of the question follows it (a later clause: a later step).

    Args:
        question: The user's question.
        waiting: The question's numbers no step used yet (all of them before the first).

    Returns:
        The prefix, or ``None`` when no number waits or the last clause states the first.
    """
    at = min((first_stated(n, question) for n in waiting), default=len(question))
    if at >= len(question):
        return None
    end = next((e for e in clause_ends(question) if e > at), len(question))
    return question[:end] if question[end:].strip(_BETWEEN) else None
