"""The seed's ``LLM`` done properly: one POST to ``/chat/completions`` over httpx (listing 7.9)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import httpx
from pydantic import SecretStr

from toolkit.bare.tool import Tool
from toolkit.config import Settings, load_settings
from toolkit.errors import ConfigError, EndpointError
from toolkit.wire import normalise_tool_choice

__all__ = ["LLM"]


def _tool_choice(choice: str) -> str | dict[str, Any] | None:
    try:
        return normalise_tool_choice(choice)
    except ValueError as exc:
        raise ConfigError(f"tool_choice={choice!r} is not valid: {exc}") from None


def _redact(text: str, secret: str | None) -> str:
    return text.replace(secret, "**********") if secret else text


class LLM:
    """A minimal OpenAI-compatible chat client over httpx.

    The base URL and key come from :class:`~toolkit.config.Settings` (explicit arguments win);
    with no provider configured, the embedded local server is started and used. The key is sent
    in the ``Authorization`` header and appears nowhere else: not in the repr, not in errors.

    Args:
        settings: Resolved settings; default :func:`toolkit.config.load_settings`.
        model: The model name; default ``settings.model``.
        base_url: The OpenAI-compatible base URL (ending in ``/v1``); default from settings.
        api_key: The API key; default from settings.
        temperature: Sampling temperature sent with every request.
        max_tokens: Longest reply, in tokens; ``None`` leaves it to the server.
        timeout: Seconds to wait for a reply; default ``settings.timeout``.
        transport: An httpx transport, e.g. ``httpx.MockTransport`` (default: the network).
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        model: str | None = None,
        base_url: str | None = None,
        api_key: str | SecretStr | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        timeout: float | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        settings = settings or load_settings()
        key = SecretStr(api_key) if isinstance(api_key, str) else api_key or settings.api_key
        if base_url is None and settings.base_url is None and settings.is_local:
            from toolkit.local.server.runner import (
                shared_server,  # heavy: loads the model on demand
            )

            server = shared_server(settings)
            base_url = server.base_url
            key = key or (SecretStr(server.api_key) if server.api_key else None)
        self.model = model or settings.model
        self.base_url = (base_url or settings.base_url or "").rstrip("/")
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.timeout = timeout if timeout is not None else settings.timeout
        self._key = key
        self._client = httpx.Client(timeout=self.timeout, transport=transport)

    def __repr__(self) -> str:
        return f"LLM(model={self.model!r}, base_url={self._shown_url()!r})"

    def _shown_url(self) -> str:
        return re.sub(r"//[^/@]*@", "//", self.base_url)

    def chat_completion(
        self,
        messages: Sequence[Mapping[str, Any]],
        tools: Sequence[Tool] = (),
        tool_choice: str = "auto",
        parallel_tool_calls: bool = True,
    ) -> dict[str, Any]:
        """POST the conversation and return the first choice.

        Args:
            messages: The history, OpenAI message dicts.
            tools: The tools the model may call.
            tool_choice: ``"auto"``, ``"none"``, ``"required"`` (``"any"`` is read as that) or
                the name of one tool to force; sent as :func:`toolkit.wire.normalise_tool_choice`
                writes it.
            parallel_tool_calls: Whether the model may call several tools in one reply.

        Returns:
            The choice dict: ``{"message": {...}, "finish_reason": ..., ...}``.

        Raises:
            ConfigError: ``tool_choice`` is none of those (e.g. ``""``).
            EndpointError: The endpoint is unreachable, too slow, answered non-2xx (the status
                and the provider's message are given) or answered something that is not a chat
                completion.
        """
        body: dict[str, Any] = {
            "model": self.model,
            "messages": list(messages),
            "temperature": self.temperature,
        }
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        if tools:
            body["tools"] = [t.description for t in tools]
            body["tool_choice"] = _tool_choice(tool_choice)
            body["parallel_tool_calls"] = parallel_tool_calls
        return self._first_choice(self._post(body))

    def _post(self, body: dict[str, Any]) -> httpx.Response:
        url = f"{self.base_url}/chat/completions"
        secret = self._key.get_secret_value() if self._key else None
        headers = {"Authorization": f"Bearer {secret}"} if secret else {}
        shown = f"{self._shown_url()}/chat/completions"
        if not self.base_url:
            raise EndpointError(
                "No base URL is configured; set OPENAI_BASE_URL (or QWEN_BASE_URL), or pass "
                "base_url= to LLM."
            )
        try:
            response = self._client.post(url, json=body, headers=headers)
        except httpx.TimeoutException:
            raise EndpointError(
                f"{shown} did not answer within {self.timeout:g} s; raise TOOLKIT_TIMEOUT "
                "(or LLM(timeout=...)) or check the server."
            ) from None
        except httpx.HTTPError as exc:
            reason = _redact(str(exc) or type(exc).__name__, secret).rstrip(".")
            raise EndpointError(
                f"Cannot reach {shown}: {reason}. Check that the server is running and that "
                "OPENAI_BASE_URL (or QWEN_BASE_URL) is right."
            ) from None
        if not response.is_success:
            raise EndpointError(_redact(_status_message(shown, response), secret))
        return response

    def _first_choice(self, response: httpx.Response) -> dict[str, Any]:
        shown = f"{self._shown_url()}/chat/completions"
        try:
            data = response.json()
        except ValueError:
            snippet = response.text[:200]
            raise EndpointError(
                f"{shown} answered HTTP {response.status_code} with a body that is not JSON: "
                f"{snippet!r}. Is the base URL an OpenAI-compatible endpoint ending in /v1?"
            ) from None
        choices = data.get("choices") if isinstance(data, dict) else None
        if not choices or not isinstance(choices, list) or not isinstance(choices[0], dict):
            raise EndpointError(
                f"{shown} answered without any choice (body starts {json.dumps(data)[:200]!r}); "
                "it is not a chat completion."
            )
        if not isinstance(choices[0].get("message"), dict):
            raise EndpointError(f"{shown} answered a choice without a message: {choices[0]!r}.")
        return choices[0]

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._client.close()


def _status_message(url: str, response: httpx.Response) -> str:
    try:
        error = response.json().get("error")
        detail = error.get("message") if isinstance(error, dict) else error
    except (ValueError, AttributeError):
        detail = None
    detail = str(detail or response.text[:300] or response.reason_phrase)
    status = response.status_code
    hint = {
        401: "check the API key (QWEN_API_KEY or OPENAI_API_KEY).",
        403: "check the API key (QWEN_API_KEY or OPENAI_API_KEY) and its permissions.",
        404: "check the base URL (it should end in /v1) and the model name (TOOLKIT_MODEL).",
        429: "the provider is rate-limiting; wait and try again.",
    }.get(status, "the provider failed; try again later." if status >= 500 else "")
    return f"{url} answered HTTP {status}: {detail}" + (f" — {hint}" if hint else "")
