"""The field of a record a question asks for, picked by the model when the question names it
in another language.

"凯斯特尔谷消防队和科里什消防队分别有多少名队员？" over "Kestrel Vale Fire Brigade — 4
engines; founded in 1902; crew: 28; average response 7 minutes": no word of the question is a
word of a label, and the small model's English reading of the question seldom names one
either. Asked beside the conversation which field the question asks for, the model's
probability of writing each label whole is read
(:func:`~toolkit.local.decision.signals.option_logprobs`) — a choice among the record's own
labels, not a translation. The small model favours a record's first label whatever the
question, so each label's score is taken against its score for a question that asks nothing
(contextual calibration): the pick stands when its share of the calibrated scores is at least
:attr:`~ToolPolicy.field_pick_min`.

A pick is asked for only where the question's form says that each record gives a number it
asks for: the values of each record, a combination of them, or their order. A record a chain
passes through on its way (the academy whose stable the question asks about) has no field the
question asks for, and the model picks one of its labels all the same.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

from toolkit.local.decision.grounding import text_values
from toolkit.local.decision.kinds import glossed_terms
from toolkit.local.decision.phrases import asking_sentence, without_names, writes_spaceless
from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.prompt import FIELD_INSTRUCTION, FIELD_OPENING, FIELD_REQUEST
from toolkit.local.decision.records import asked_year, glossed_number, record_fields
from toolkit.local.decision.signals import option_logprobs
from toolkit.local.decision.turn import last_question, turn_calls
from toolkit.local.format.job import ChatJob
from toolkit.local.format.template import render_prompt

if TYPE_CHECKING:  # picks are read on a loaded engine; the llama.cpp module is the runtime's
    from toolkit.local.runtime.engine import Engine

__all__ = ["NO_QUESTION", "FieldReader", "asking_sentence", "picked_label", "without_names"]

#: The question the labels' scores are calibrated against: one that asks nothing.
NO_QUESTION = "?"

#: The picks made, by engine, question and record (the same record is read at each step of
#: its turn).
_PICKS: dict[tuple[int, str, str], str | None] = {}
#: How many are kept (the oldest goes first).
_KEPT_PICKS = 256


def picked_label(
    scores: Mapping[str, float], baseline: Mapping[str, float], floor: float
) -> str | None:
    """The label the question asks for: the one whose score gains most over its score for a
    question that asks nothing, when its share of the gains (their softmax) is at least
    ``floor``.

    Args:
        scores: Each label's log-probability as the question's field.
        baseline: Each label's log-probability for :data:`NO_QUESTION`.
        floor: The share the pick must have.

    Returns:
        The label, or ``None`` when no label stands out.
    """
    gains = {label: scores[label] - baseline.get(label, 0.0) for label in scores}
    if len(gains) < 2:
        return None
    top = max(gains.values())
    weights = {label: math.exp(gain - top) for label, gain in gains.items()}
    best = max(weights, key=weights.__getitem__)
    return best if weights[best] / sum(weights.values()) >= floor else None


class FieldReader:
    """Reads the number of a record that a question names in another language; mixed into
    the decoder, whose state it shares."""

    engine: Engine
    job: ChatJob
    policy: ToolPolicy
    template: str | None

    def picked_number(self, record: str) -> str | None:
        """The number under the record's label that a question written in Chinese says — the
        one year it states, when the sentence asks which year
        (:func:`~toolkit.local.decision.records.asked_year`) — through its words' English glosses,
        in the sentence that asks or, when that names nothing, in the whole question
        (:func:`~toolkit.local.decision.records.glossed_number`, :attr:`~ToolPolicy.glossed_fields`:
        动物 "animal" for "640 animals"), or else the one the model picks as its field (its share of
        the calibrated scores at least :attr:`~ToolPolicy.field_pick_min`,
        :attr:`~ToolPolicy.picked_fields`); ``None`` when the question is in Latin letters (its own
        words are matched to the labels), the model picks none, the record has fewer than two labels
        or the picked label stands over several numbers."""
        if not self.policy.picked_fields:
            return None
        whole = last_question(self.job.messages)
        question = asking_sentence(whole)
        if not writes_spaceless(question):  # its own words are matched to the labels
            return None
        if self.policy.glossed_fields and (year := asked_year(record, question)) is not None:
            return year  # "那条渡轮是哪一年开始运营的？" of the one year it states
        if self.policy.glossed_fields:  # a label the question's own words say in English
            tools = self.job.tool_names
            named = self._looked_up()
            terms = glossed_terms(without_names(question, named), tools)
            if not terms:  # the sentence that asks names nothing: "…哪个起重机更多？多出几台？"
                terms = glossed_terms(without_names(whole, named), tools)
            glossed = glossed_number(record, terms)
            if glossed is not None:
                return glossed
        fields = record_fields(record)
        labels = list(dict.fromkeys(label for label, _ in fields))
        if len(labels) < 2:
            return None
        key = (id(self.engine), question, record)
        if key not in _PICKS:
            with self.engine.aside():  # the conversation's evaluated prompt is kept
                scores = self._label_scores(record, question, labels)
                baseline = self._label_scores(record, NO_QUESTION, labels)
            while len(_PICKS) >= _KEPT_PICKS:
                _PICKS.pop(next(iter(_PICKS)))
            _PICKS[key] = picked_label(scores, baseline, self.policy.field_pick_min)
        numbers = [number for label, number in fields if label == _PICKS[key]]
        return numbers[0] if len(numbers) == 1 else None

    def _looked_up(self) -> list[str]:
        """The text values this turn's calls sent: the names of the things looked up."""
        calls, _ = turn_calls(self.job.messages)
        return [value for call in calls for value in text_values(call)]

    def _label_scores(self, record: str, question: str, labels: list[str]) -> dict[str, float]:
        """Each label's log-probability as the field the question asks for."""
        request = FIELD_REQUEST.format(record=record, question=question, fields="; ".join(labels))
        messages = [
            {"role": "system", "content": FIELD_INSTRUCTION},
            {"role": "user", "content": request},
        ]
        text = render_prompt(messages, None, template=self.template) + FIELD_OPENING
        return option_logprobs(self.engine, self.engine.tokenize(text), labels, '"')
