"""Run BFCL cases through a chat model: one call per case, bounded concurrency.

Each case is sent exactly as an application would send it:
``model.bind_tools(case.tools).invoke(case.messages)``. The reply's ``tool_calls`` (and
``invalid_tool_calls``, whose arguments were not JSON) are mapped back to the original BFCL
names, checked for schema validity, and scored by :func:`toolkit.eval.bfcl_score.score_case`.

A case whose request fails (a timeout, a context-length error, a 5xx) is recorded as failed with
the error; an endpoint that cannot be reached or refuses the credentials stops the whole run with
an :class:`~toolkit.errors.EndpointError`, since every further case would fail the same way.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import openai
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from pydantic import SecretStr

from toolkit.errors import EndpointError
from toolkit.eval.bfcl_data import BfclCase
from toolkit.eval.bfcl_score import Call, schema_valid, score_case
from toolkit.eval.pool import run_bounded
from toolkit.wire import content_text

__all__ = ["CaseResult", "run_case", "run_cases"]

_FATAL = (
    openai.APIConnectionError,
    openai.AuthenticationError,
    openai.PermissionDeniedError,
    openai.NotFoundError,
)


@dataclass(frozen=True)
class CaseResult:
    """What happened on one case.

    Attributes:
        id: The BFCL id.
        category: The BFCL category.
        passed: Whether the calls match the accepted answer.
        reason: Why it failed (empty when it passed).
        calls: The calls made, ``{"name": original name, "arguments": dict | None}`` each.
        valid_calls: How many of them were schema-valid.
        content: The reply's text content.
        latency_s: Seconds the model call took.
        error: The request's error, if it failed (the case then counts as failed).
    """

    id: str
    category: str
    passed: bool
    reason: str
    calls: list[dict[str, Any]] = field(default_factory=list)
    valid_calls: int = 0
    content: str = ""
    latency_s: float = 0.0
    error: str | None = None


def _calls_of(reply: AIMessage, case: BfclCase) -> tuple[list[Call], int]:
    calls: list[Call] = []
    valid = 0
    for tool_call in reply.tool_calls:
        sent = tool_call["name"]
        calls.append(Call(case.names.get(sent, sent), tool_call["args"]))
        valid += schema_valid(case.tools, sent, tool_call["args"])
    for bad in reply.invalid_tool_calls:
        sent = bad.get("name") or ""
        calls.append(Call(case.names.get(sent, sent), None))
    return calls, valid


def _redacted(text: str, model: BaseChatModel) -> str:
    """Blank out the model's API key should an error message ever echo it."""
    key = getattr(model, "openai_api_key", None)
    secret = key.get_secret_value() if isinstance(key, SecretStr) else None
    return text.replace(secret, "**********") if secret else text


def _fatal(exc: Exception) -> EndpointError:
    if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
        return EndpointError(
            "the endpoint refused the API key; check QWEN_API_KEY or OPENAI_API_KEY."
        )
    if isinstance(exc, openai.NotFoundError):
        return EndpointError(
            "the endpoint does not know this model or path; check --model / TOOLKIT_MODEL and "
            "the base URL (it usually ends in /v1)."
        )
    return EndpointError(
        "cannot reach the model endpoint; check OPENAI_BASE_URL / QWEN_BASE_URL and that the "
        "server is running."
    )


def run_case(model: BaseChatModel, case: BfclCase) -> CaseResult:
    """Send one case to the model and score the reply.

    Args:
        model: A chat model that supports ``bind_tools``.
        case: The case.

    Returns:
        The result; a failed request gives a failed result carrying the error.

    Raises:
        EndpointError: The endpoint cannot be reached, refuses the key, or lacks the model.
    """
    started = time.perf_counter()
    try:
        reply = model.bind_tools(case.tools).invoke(case.messages)
    except openai.APITimeoutError:
        latency = time.perf_counter() - started
        error = "timed out waiting for the model (raise --timeout or TOOLKIT_TIMEOUT)"
        return CaseResult(case.id, case.category, False, error, latency_s=latency, error=error)
    except _FATAL as exc:
        raise _fatal(exc) from None
    except Exception as exc:  # one case's failure must not end the run
        latency = time.perf_counter() - started
        error = f"{type(exc).__name__}: {_redacted(str(exc), model)[:300]}"
        return CaseResult(case.id, case.category, False, error, latency_s=latency, error=error)
    latency = time.perf_counter() - started
    calls, valid = _calls_of(reply, case)
    verdict = score_case(case.kind, case.functions, case.answer, calls)
    return CaseResult(
        id=case.id,
        category=case.category,
        passed=verdict.passed,
        reason=verdict.reason,
        calls=[{"name": call.name, "arguments": call.arguments} for call in calls],
        valid_calls=valid,
        content=content_text(reply.content),
        latency_s=latency,
    )


def run_cases(
    model: BaseChatModel,
    cases: Sequence[BfclCase],
    *,
    concurrency: int = 1,
    on_result: Callable[[CaseResult], None] | None = None,
) -> list[CaseResult]:
    """Run cases with at most ``concurrency`` requests in flight.

    Args:
        model: A chat model that supports ``bind_tools``.
        cases: The cases to run.
        concurrency: Requests in flight at once (1 for the embedded model).
        on_result: Called with each result as it arrives (e.g. to advance a progress bar).

    Returns:
        The results, in the order of ``cases``.

    Raises:
        EndpointError: The endpoint cannot be used at all (the run stops).
    """
    return run_bounded(lambda case: run_case(model, case), cases, concurrency, on_result)
