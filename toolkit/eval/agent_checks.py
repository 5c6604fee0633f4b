"""Is a final answer right? The task's own checks, and two that hold for every task.

:func:`task_problems` applies a task's regexes and expected calls. Every answer is also read for
the two faults a user should never see, whatever the task says:

* :func:`leaked_call` — call-shaped text in the answer (a ``<tool_call>`` tag, or JSON with a
  ``name`` and ``arguments``): the model meant to call a tool and wrote the call as prose;
* :func:`ungrounded_numbers` — numbers the answer states that neither the question nor any tool
  result gave: an invented fact, or arithmetic nobody checked.

And a right answer is a sentence in the question's language (:func:`in_language`), not the
tool results recited (:func:`recites_results`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from toolkit.eval.agent_tasks import AgentTask, ExpectedCall
from toolkit.local.format.parser import parse_tool_calls

__all__ = [
    "calls_match",
    "in_language",
    "leaked_call",
    "recites_results",
    "task_problems",
    "ungrounded_numbers",
]

#: A number as written in text: digits, thousands commas, a decimal part (signs are left off,
#: so "-15 °C" and "15" are the same figure).
_NUMBER = re.compile(r"(?<![\d.])\d+(?:,\d{3})*(?:\.\d+)?(?!\d)")
_CALL_JSON = re.compile(r'"name"\s*:\s*"[^"]*"\s*,\s*"(?:arguments|parameters)"\s*:')


def leaked_call(answer: str) -> bool:
    """Whether a text answer holds a tool call written out as text.

    Args:
        answer: The final answer.

    Returns:
        True for a ``<tool_call>`` tag, a call object (``{"name": ..., "arguments": ...}``),
        fenced or bare.
    """
    if "<tool_call>" in answer or _CALL_JSON.search(answer):
        return True
    return bool(parse_tool_calls(answer).tool_calls)


def in_language(answer: str, language: str) -> bool:
    """Whether an answer is written in a language: ``zh`` (Chinese) or ``en`` (English).

    Args:
        answer: The final answer.
        language: The task's language label; any other label is not checked.

    Returns:
        True for Chinese text with Chinese characters, English text with English words.
    """
    if language == "zh":
        return any("\u4e00" <= ch <= "\u9fff" for ch in answer)
    if language == "en":
        return len(re.findall(r"[A-Za-z]{2,}", answer)) >= 2
    return True


def recites_results(answer: str, results: Sequence[str]) -> bool:
    """Whether an answer is nothing but tool results copied out (and bare numbers).

    Args:
        answer: The final answer.
        results: The texts of the run's tool results.

    Returns:
        True when, with every result removed, only numbers and punctuation are left.
    """
    rest = answer
    for result in sorted((r.strip() for r in results if r.strip()), key=len, reverse=True):
        rest = rest.replace(result, " ")
    if rest == answer:
        return False
    return not re.sub(r"[\d\s\W_]+", "", rest)


def _numbers(text: str) -> list[float]:
    found = []
    for match in _NUMBER.finditer(text):
        try:
            found.append(float(match.group().replace(",", "")))
        except ValueError:
            continue
    return found


def ungrounded_numbers(answer: str, sources: Sequence[str]) -> list[str]:
    """The numbers an answer states that no source states.

    Numbers are compared by value ("11" matches "11.0", "1,200" matches "1200"); one written
    with decimals matches a source's number rounded to as many ("13.3" and "13.33" match
    "13.333333333333334").

    Args:
        answer: The final answer.
        sources: The texts it may rest on: the question and every tool result.

    Returns:
        Each ungrounded number as written in the answer, in order.
    """
    known = {value for text in sources for value in _numbers(text)}

    def grounded(written: str) -> bool:
        value = float(written.replace(",", ""))
        places = len(written.partition(".")[2])
        return value in known or (bool(places) and any(round(k, places) == value for k in known))

    return [match.group() for match in _NUMBER.finditer(answer) if not grounded(match.group())]


def _same(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return float(expected) == float(actual)
    if isinstance(expected, str) and isinstance(actual, str):
        return expected.strip().casefold() == actual.strip().casefold()
    return expected == actual


def calls_match(expected: ExpectedCall, made: Sequence[Mapping[str, Any]]) -> bool:
    """Whether one of the calls made is the expected call.

    Args:
        expected: The call a task expects.
        made: The calls of the run, each ``{"name", "args"}``.

    Returns:
        True when a call of that tool gives every expected argument.
    """
    return any(
        call.get("name") == expected.name
        and all(_same(v, (call.get("args") or {}).get(k)) for k, v in expected.arguments.items())
        for call in made
    )


def task_problems(
    task: AgentTask,
    answer: str | None,
    made: Sequence[Mapping[str, Any]],
    results: Sequence[str] = (),
) -> list[str]:
    """Everything that keeps an answer from being right for a task.

    Args:
        task: The task.
        answer: The final answer (``None`` when the run ended without one).
        made: The calls of the run, each ``{"name", "args"}``.
        results: The texts of the run's tool results.

    Returns:
        One reason a problem, empty for a right answer.
    """
    if answer is None:
        return ["no final answer"]
    problems = [
        f"answer does not match {pattern!r}"
        for pattern in task.must
        if not re.search(pattern, answer, re.IGNORECASE)
    ]
    problems += [
        f"answer matches {pattern!r}"
        for pattern in task.must_not
        if re.search(pattern, answer, re.IGNORECASE)
    ]
    if task.calls is not None and not task.calls and made:
        problems.append(f"made {len(made)} call(s) where none was needed")
    for call in task.calls or ():
        if not calls_match(call, made):
            problems.append(f"no call {call.name}({call.arguments})")
    if leaked_call(answer):
        problems.append("the answer holds a tool call written as text")
    if not in_language(answer, task.language):
        problems.append(f"the answer is not written in the question's language ({task.language})")
    if recites_results(answer, results):
        problems.append("the answer only recites the tool results")
    return problems
