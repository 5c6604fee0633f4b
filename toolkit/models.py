"""Get a LangChain chat model: the configured provider, or the embedded local model.

Both paths return a ``ChatOpenAI``: a provider through
``init_chat_model(model, model_provider="openai", api_key=..., base_url=...)`` exactly as the seed
does, the embedded model pointed at our own OpenAI-compatible server on loopback. The rest of the
toolkit cannot tell them apart, which is the point.
"""

from __future__ import annotations

from typing import Any

from langchain.chat_models import init_chat_model
from langchain_core.language_models import BaseChatModel

from toolkit.config import Settings, load_settings

__all__ = ["load_chat_model"]

#: The key sent to the embedded server when it does not require one (it is not a secret).
LOCAL_PLACEHOLDER_KEY = "local"


def load_chat_model(settings: Settings | None = None, **model_kwargs: Any) -> BaseChatModel:
    """Return a chat model for the configured provider, or the embedded local model.

    With no provider configured, the embedded server is started once per process on a free
    loopback port (the first call loads the model, with a spinner on a terminal) and reused.

    Args:
        settings: Resolved settings; default :func:`toolkit.config.load_settings`.
        **model_kwargs: Passed to the chat model (e.g. ``temperature=0``, ``max_retries=2``).

    Returns:
        A ``ChatOpenAI`` that supports ``bind_tools``.

    Raises:
        ConfigError: The settings are invalid.
        LocalModelError: The embedded model cannot be loaded (the message says how to fix it).
    """
    settings = settings or load_settings()
    model_kwargs.setdefault("timeout", settings.timeout)
    if settings.is_local:
        from toolkit.local.server.runner import (
            shared_server,  # heavy: llama.cpp loads only when needed
        )

        server = shared_server(settings)
        model_kwargs.setdefault("temperature", 0)
        return init_chat_model(
            settings.model,
            model_provider="openai",
            api_key=server.api_key or LOCAL_PLACEHOLDER_KEY,
            base_url=server.base_url,
            **model_kwargs,
        )
    key = settings.api_key.get_secret_value() if settings.api_key else LOCAL_PLACEHOLDER_KEY
    return init_chat_model(
        settings.model,
        model_provider="openai",
        api_key=key,
        base_url=settings.base_url,
        **model_kwargs,
    )
