"""The prompt the embedded model reads for a request, the decision's sentences included. Pure.

:func:`build_prompt` renders a job's messages and tools with the model's chat template after
:func:`prompt_messages` has added the policy's nudge (for ``tool_choice="auto"``);
:func:`results_nudge` is the sentence that asks for the final answer once the conversation
holds every result it needs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from toolkit.local.decision.asking import asked_order
from toolkit.local.decision.comparison import comparison
from toolkit.local.decision.grounding import arguments_of
from toolkit.local.decision.mentions import question_names
from toolkit.local.decision.policy import RESULTS_NUDGE, ToolPolicy
from toolkit.local.decision.turn import (
    all_failed,
    failed,
    holds_value,
    is_error,
    last_step_at,
    step_results,
    turn_calls,
    turn_start,
)
from toolkit.local.format.job import ChatJob
from toolkit.local.format.template import render_prompt
from toolkit.wire import content_text

__all__ = [
    "FIELD_INSTRUCTION",
    "FIELD_OPENING",
    "FIELD_REQUEST",
    "READING_INSTRUCTION",
    "READING_REQUEST",
    "answer_messages",
    "build_prompt",
    "call_label",
    "labelled_results",
    "listed_values",
    "prompt_messages",
    "results_nudge",
    "turn_results",
    "whole_number",
]

_DEFAULT_SYSTEM = "You are a helpful assistant."


def call_label(name: str, arguments: Any) -> str:
    """A call as one line of text: ``add(x=6, y=5)``, values written as JSON.

    Args:
        name: The tool's name.
        arguments: Its arguments (an object, or JSON text of one).

    Returns:
        The label.
    """
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return f"{name}({arguments})"
    if not isinstance(arguments, Mapping):
        return f"{name}({json.dumps(arguments, ensure_ascii=False)})"
    listed = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in arguments.items())
    return f"{name}({listed})"


#: A result that is one whole number written with a decimal point ("84.0", "-3.00").
_WHOLE = re.compile(r"\s*(-?\d+)\.0+\s*")


def whole_number(result: str) -> str:
    """A result that is a whole number as a sentence writes it: "84" for "84.0" (a tool
    typed ``float`` returns 14 × 6 as 84.0, and the small model wrote "84.0 moulds"); any other
    result as it is.

    Args:
        result: A tool result's text.

    Returns:
        The text to show.
    """
    whole = _WHOLE.fullmatch(result)
    return whole[1] if whole else result


def labelled_results(messages: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The messages with each tool result prefixed by the call it answers.

    ``{"role": "tool", "content": "11"}`` answering ``add(x=6, y=5)`` becomes
    ``add(x=6, y=5) = 11``, a whole number as a sentence writes it (:func:`whole_number`:
    ``times(value=14, factor=6) = 84`` for 84.0). A result is matched to its call by
    ``tool_call_id``, else to the next unanswered call of the assistant message before it; a
    result that answers no call is left as it is.

    Args:
        messages: OpenAI messages.

    Returns:
        New message dicts (the given ones are not modified).
    """
    out: list[dict[str, Any]] = []
    calls: dict[str, str] = {}
    unanswered: list[str] = []
    for message in messages:
        message = dict(message)
        role = message.get("role")
        if role == "assistant":
            calls, unanswered = {}, []
            for call in message.get("tool_calls") or []:
                fn = call.get("function") or {}
                label = call_label(str(fn.get("name")), fn.get("arguments"))
                key = str(call.get("id") or len(unanswered))
                calls[key] = label
                unanswered.append(key)
        elif role == "tool":
            key = str(message.get("tool_call_id"))
            if key not in calls and unanswered:
                key = unanswered[0]
            if key in calls:
                if key in unanswered:
                    unanswered.remove(key)
                result = whole_number(content_text(message.get("content")))
                message["content"] = f"{calls[key]} = {result}"
        out.append(message)
    return out


def prompt_messages(job: ChatJob, policy: ToolPolicy) -> list[dict[str, Any]]:
    """The messages the template renders: the job's, with the policy's changes.

    With tools offered and ``tool_choice="auto"``, the nudge joins the system turn; with
    :attr:`~toolkit.local.decision.policy.ToolPolicy.label_results`, each tool result is
    prefixed by the call it answers (:func:`labelled_results`), so the model sees which
    result belongs to which question.

    Args:
        job: The request.
        policy: The decision settings.

    Returns:
        A new list of messages (the job's are not modified).
    """
    labelled = policy.label_results and job.constrained
    messages = labelled_results(job.messages) if labelled else [dict(m) for m in job.messages]
    if not (job.tools and job.tool_choice == "auto" and job.constrained and policy.nudge):
        return messages
    if messages and messages[0].get("role") in ("system", "developer"):
        first = messages[0]
        base = content_text(first.get("content")).rstrip()
        first["content"] = f"{base}\n\n{policy.nudge}" if base else policy.nudge
        first["role"] = "system"
    else:
        messages.insert(0, {"role": "system", "content": f"{_DEFAULT_SYSTEM} {policy.nudge}"})
    return messages


def build_prompt(job: ChatJob, policy: ToolPolicy, template: str | None) -> str:
    """Render the prompt the model reads for a job.

    Args:
        job: The request.
        policy: The decision settings (its nudge may be added).
        template: The model's chat template; ``None`` for Qwen2.5's.

    Returns:
        The prompt text.

    Raises:
        PromptError: The messages or tools cannot be rendered.
    """
    return render_prompt(prompt_messages(job, policy), job.tools, template=template)


def results_nudge(messages: Sequence[Mapping[str, Any]]) -> str:
    """:data:`RESULTS_NUDGE`, restating the user's last question when there is one.

    After several rounds of calls the question is far back in the prompt, and the small model
    then tends to recite the first results instead of answering; the question restated right
    before the answer keeps it on the question (measured on the seed question: with the tools
    in either order the answer states the sum, where without it one order only recited the
    weather).

    Args:
        messages: The conversation (OpenAI messages).

    Returns:
        The sentence to append as a system message.
    """
    for message in reversed(messages):
        if message.get("role") == "user":
            question = content_text(message.get("content")).strip()
            if question:
                return f"{RESULTS_NUDGE} The question was: {question}"
            break
    return RESULTS_NUDGE


_ANSWER_ASK = {
    "zh": ("问题：", "函数调用的结果：", "请根据这些结果，用一句完整的话回答问题，给出结果。"),
    "en": (
        "Question: ",
        "Results of the function calls:",
        "Using these results, answer the question in one complete sentence that states the result.",
    ),
}


#: Asked of the model beside the conversation: the question in English, one line, for the
#: labels of records written in English ("哪家的工人最少？" → "Which has the fewest workers?").
READING_INSTRUCTION = "You are a translator."
#: The user's turn of that side question, around the question itself.
READING_REQUEST = "Translate this question into English. Do not answer it.\n\n{}"

#: Asked of the model beside the conversation: which field of a record a question asks for,
#: its answer scored over the record's labels (:mod:`~toolkit.local.decision.fields`).
FIELD_INSTRUCTION = "You choose which field of a record answers a question."
#: The user's turn of that side question: the record, the question, the labels.
FIELD_REQUEST = (
    "Record: {record}\nQuestion: {question}\nFields: {fields}\n"
    "Which field does the question ask for?"
)
#: The start of the answer the labels are scored after (each then closes the quote).
FIELD_OPENING = 'The question asks for the field "'

#: The request of the final-answer step when the results are one tool's, called for several
#: values: the answer states each of them.
_EACH_ASK = {
    "zh": "请根据这些结果，用一句完整的话回答问题，说出每一个结果。",
    "en": (
        "Using these results, answer the question in one complete sentence that states each result."
    ),
}


#: How the final-answer step names the result that answers the question.
def _plain(result: str) -> str:
    """A tool's number as a sentence states it: "34" for "34.0", "257" for "455 - 198 = 257"
    or ``{"difference": 257}`` (the number after the last "=", else the only one)."""
    text = result.strip()
    if "=" in text:
        text = text.rpartition("=")[2].strip()
    found = re.findall(r"-?\d+(?:\.\d+)?", text)
    if len(found) == 1:
        text = found[0]  # the number alone, without the JSON or the words around it
    try:
        number = float(text)
    except ValueError:
        return result
    return str(int(number)) if number.is_integer() else text


#: The result of the subtraction a question of order asks for too, after the comparison.
_DIFFERENCE_IS = {
    "zh": "，相差{}。",
    "en": ", by {}.",
}
_RESULT_IS = {
    "zh": "最后一步的结果 {} 就是问题的答案。",
    "en": "The last result, {}, is the answer.",
}

#: How the final-answer step names the results of a question's parts, in order.
_PARTS_ARE = {
    "zh": "问题的几个小问依次由结果 {} 回答，回答时每一个都要说出。",
    "en": "The results {} answer the question's parts in turn; state each of them.",
}
_PARTS_JOIN = {"zh": "、", "en": " and "}

#: The request of the final-answer step when every result of the turn is an error.
_FAILED_ASK = {
    "zh": "这些函数调用都失败了。请用一句完整的话告诉用户无法得到答案，并说明原因。",
    "en": (
        "These function calls failed. In one complete sentence, tell the user that the answer "
        "could not be found, and why."
    ),
}


def _language(text: str) -> str:
    return "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en"


def turn_results(messages: Sequence[Mapping[str, Any]]) -> tuple[str, list[str]]:
    """The last user question and the labelled tool results that came after it.

    Args:
        messages: OpenAI messages.

    Returns:
        The question ("" when there is none) and each result as ``call = result``; a failed
        result whose tool a later step called again with success is left out.
    """
    labelled = labelled_results(messages)
    if not any(m.get("role") == "user" for m in labelled):
        return "", []
    start = turn_start(labelled)
    question = content_text(labelled[start].get("content")).strip()
    retried = _retried(messages[start + 1 :], question)
    tool = [
        m
        for i, m in enumerate(labelled[start + 1 :])
        if m.get("role") == "tool" and i not in retried
    ]
    return question, [content_text(m.get("content")).strip() for m in tool]


def _retried(turn: Sequence[Mapping[str, Any]], question: str) -> set[int]:
    """The positions of the failed results (``Error: ...``) whose tool a later step called
    again with success: ``get_email("Carol")`` failed, ``get_email("Dave")`` answered — or
    whose one text value another tool answered for (:func:`~toolkit.local.decision.turn.
    holds_value`) when the question does not name the failed tool
    (:func:`~toolkit.local.decision.mentions.question_names`: "三叶巷蜂场" refused by the
    vineyard tool, answered by the apiary tool; "Carol" refused by ``get_email`` for "Carol's
    email" stays). The answer rests on the call that answered; shown the failure too, a small
    model answers with it (the names a refusal lists as known)."""
    calls: dict[str, tuple[str, list[str]]] = {}
    seen: list[tuple[int, str, list[str], int, bool]] = []  # (position, tool, texts, step, failed)
    step = 0
    for i, message in enumerate(turn):
        if message.get("role") == "assistant":
            step += 1
            for call in message.get("tool_calls") or []:
                function = call.get("function") or {}
                texts = [v for v in arguments_of(call).values() if isinstance(v, str) and v]
                calls[str(call.get("id"))] = (str(function.get("name")), texts)
        elif message.get("role") == "tool":
            name, texts = calls.get(str(message.get("tool_call_id")), ("", []))
            seen.append((i, name, texts, step, failed(message)))

    def answered_elsewhere(tool: str, texts: list[str]) -> bool:
        if len(texts) != 1 or question_names(question, [tool]):
            return False
        return any(
            t != tool and not f and any(holds_value(v, texts[0]) for v in values)
            for _, t, values, _, f in seen
        )

    return {
        i
        for i, tool, texts, step, failed in seen
        if failed
        and (
            any(t == tool and s > step and not f for _, t, _, s, f in seen)
            or answered_elsewhere(tool, texts)
        )
    }


def _one_tool_many_values(messages: Sequence[Mapping[str, Any]]) -> bool:
    """Whether this turn called one tool only, for two values or more (the weather of two
    cities): then the answer states each result, where the small model, asked for "the
    result", stated one ("青松音乐厅和白桦音乐厅分别有1260个座位。")."""
    calls, results = turn_calls(messages)
    names = {str((c.get("function") or {}).get("name")) for c in calls}
    answered = [r for r in results if r is not None and not is_error(r)]
    if len(names) == 1 and len(answered) >= 2:
        return True
    # the last step alone, every call of it answered: "What are the opening hours of A, B
    # and C?" asked of one tool for each, after an attempt that ran the three together
    last = (step_results(messages) or [[]])[-1]
    names = {str((c.get("function") or {}).get("name")) for c, _ in last}
    return (
        len(names) == 1
        and len(last) >= 2
        and all(r is not None and not is_error(r) for _, r in last)
    )


def listed_values(values: Sequence[tuple[str, str]], question: str) -> str:
    """The value of each record, each after what its call asked about, in the question's
    language ("琥珀码头（38）、桦木码头（45）。", "Amber Dock (38), Birch Dock (45).")."""
    if _language(question) == "zh":
        return "、".join(f"{name}（{n}）" for name, n in values) + "。"
    return ", ".join(f"{name} ({n})" for name, n in values) + "."


#: What the final-answer step puts before the values of each record it lists.
_VALUES_ARE = {"zh": "各自的数值：", "en": "Values: "}


def answer_messages(
    messages: Sequence[Mapping[str, Any]],
    *,
    compare: bool = True,
    result: str | None = None,
    reading: Callable[[], str] | None = None,
    picked: Callable[[str], str | None] | None = None,
    values: Sequence[tuple[str, str]] | None = None,
    difference: bool = False,
    parts: Sequence[str] = (),
) -> list[dict[str, Any]] | None:
    """The final-answer step: the question and the results it rests on, and nothing else.

    Once the tools have answered, a small model reading the whole tool conversation tends to
    recite the first result, or to call again. Asked anew — the question, the results of this
    turn labelled with their calls, and a request for one sentence that states the result, in
    the question's language, without the tool definitions — it answers the question. When
    the question asks which looked-up value is larger or smaller, the comparison is written
    out (:func:`~toolkit.local.decision.comparison.comparison`): ordering
    numbers is a step the small model gets wrong. It comes last, after the request (on
    fourteen hand-made comparisons: 6 answered right without it, 13 with it last; shown as
    the last result line, "Anna is younger than Ben" stayed, at 34 against 29; the one wrong
    asked which city is farther from the equator, south of it, where the farther latitude is
    the smaller number).

    A question of arithmetic asked step by step (:mod:`toolkit.local.decision.arithmetic`)
    has its answer in the last step's result: that ``result`` is named last, the same way
    (the small model, shown the chain's results, copied the question out again).

    Args:
        messages: OpenAI messages.
        compare: Write the comparison of the results the question asks for.
        reading: Gives the question in English (asked only when needed), for the labels of
            the comparison (:func:`~toolkit.local.decision.comparison.comparison`).
        picked: Gives the number of a record the model picks as the field a question in
            another language asks for (:mod:`~toolkit.local.decision.fields`), for the
            comparison.
        result: The result that answers the question, when it is known.
        difference: The last step subtracted the smaller of two compared values from the
            larger ("which is smaller, and by how much?"): the comparison is of the values
            before it, and ``result`` joins it as the difference.
        values: The value of each record the question asks for, with what each call asked
            about, when they are known: listed last, as the comparison is ("各自的数值：
            万特库尔击剑馆（84）、多里蒙击剑馆（57）。"); shown the records alone, the small
            model copied the question out.
        parts: The results of a question of several parts, one each, in order: named in
            place of ``result`` ("The results 84 and 21 answer the question's parts in
            turn"), where named the last alone the small model left the first part out.

    Returns:
        A short conversation (the client's system message, if any, then one user turn), or
        ``None`` when this turn has no tool results.
    """
    question, results = turn_results(messages)
    if not question or not results:
        return None
    language = _language(question)
    head, listed, ask = _ANSWER_ASK[language]
    failures = all_failed(messages)
    # Last, right before the answer: shown among the results, it went unread.
    compared = None
    if compare and not failures:
        looked = messages
        if difference:  # the values compared, as the steps before the subtraction gave them
            looked = messages[: last_step_at(messages)]
        compared = comparison(looked)
        if compared is None and reading is not None and asked_order(question):
            compared = comparison(looked, reading(), picked)  # a label in another language
    if failures:  # nothing to state: the answer says what went wrong
        ask = _FAILED_ASK[language]
    elif result is None and not compared and _one_tool_many_values(messages):
        ask = _EACH_ASK[language]
    if compared:  # with the result of a difference it asks for too ("小多少公顷？")
        ask = f"{ask}\n{compared}"
        if (
            difference and result is not None and not failures
        ):  # one sentence: the order, and by how much
            ask = ask.rstrip("。.") + _DIFFERENCE_IS[language].format(_plain(result))
    elif values and not failures:
        ask = f"{ask}\n{_VALUES_ARE[language]}{listed_values(values, question)}"
    elif len(parts) > 1 and not failures:
        named = _PARTS_JOIN[language].join(whole_number(p) for p in parts)
        ask = f"{_PARTS_ARE[language].format(named)}\n{ask}"
    elif result is not None and not failures:
        ask = f"{_RESULT_IS[language].format(whole_number(result))}\n{ask}"
    body = f"{head}{question}\n\n{listed}\n" + "\n".join(results) + f"\n\n{ask}"
    system = [
        {"role": "system", "content": content_text(m.get("content"))}
        for m in messages[:1]
        if m.get("role") in ("system", "developer")
    ]
    return [*system, {"role": "user", "content": body}]
