"""Settings from the environment and a ``.env`` file: the only module that reads either.

Precedence, highest first:

1. keyword overrides passed to :func:`load_settings`;
2. the process environment;
3. the ``.env`` file (``TOOLKIT_ENV_FILE``, else ``./.env``); it never changes ``os.environ``.

Which provider is used:

* ``TOOLKIT_PROVIDER=local`` always uses the embedded model; ``remote`` requires a provider.
* Otherwise the seed's names win: ``QWEN_API_KEY`` (with ``QWEN_BASE_URL``, default DashScope's
  OpenAI-compatible endpoint); then ``OPENAI_API_KEY`` (with ``OPENAI_BASE_URL`` or the older
  ``OPENAI_API_BASE``); then a base URL alone (a keyless vLLM or llama.cpp server).
* With none of these the embedded local model answers, offline.

API keys are held as :class:`pydantic.SecretStr`: a repr, a log line or an error shows
``**********``, never the key.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from dotenv import dotenv_values
from pydantic import SecretStr

from toolkit.errors import ConfigError

__all__ = ["ENV_VARS", "Settings", "load_settings"]

DASHSCOPE_BASE_URL = "https://dashscope.aliyuncs.com/compatible-mode/v1"
LOCAL_MODEL_NAME = "qwen2.5-coder-0.5b-instruct"
_DEFAULT_REMOTE_MODEL = {"qwen": "qwen-plus", "openai": "gpt-4o-mini", "custom": "default"}

#: Every variable the toolkit reads, with what it means (also in ``.env.example``).
ENV_VARS: dict[str, str] = {
    "QWEN_API_KEY": "API key of a Qwen/DashScope account (the seed's name).",
    "QWEN_BASE_URL": "OpenAI-compatible base URL for QWEN_API_KEY (default: DashScope).",
    "OPENAI_API_KEY": "API key of any OpenAI-compatible provider.",
    "OPENAI_BASE_URL": "Base URL of that provider (OPENAI_API_BASE is accepted too).",
    "OPENAI_API_BASE": "Older name of OPENAI_BASE_URL.",
    "TOOLKIT_MODEL": "Model name to ask the provider for (default depends on the provider).",
    "TOOLKIT_PROVIDER": "auto (default), local (always the embedded model) or remote.",
    "TOOLKIT_MODEL_PATH": "A GGUF file for the embedded server instead of the shipped model.",
    "TOOLKIT_CACHE_DIR": "Where the shipped model is assembled (default ~/.cache/toolkit).",
    "TOOLKIT_THREADS": "CPU threads for the embedded model (default: all cores).",
    "TOOLKIT_CONTEXT": "Context window of the embedded model in tokens (default 4096).",
    "TOOLKIT_SERVER_API_KEY": "Key clients of `toolkit serve` must send (needed off loopback).",
    "TOOLKIT_TIMEOUT": "Seconds to wait for one model reply (default 120).",
    "TOOLKIT_ENV_FILE": "Path of the .env file to read (default ./.env).",
}

Provider = Literal["local", "qwen", "openai", "custom"]


@dataclass(frozen=True)
class Settings:
    """Resolved configuration; build it with :func:`load_settings`.

    Attributes:
        provider: ``local`` for the embedded model, else which variables configured the provider.
        api_key: The provider's key, kept secret; ``None`` for the embedded model.
        base_url: The provider's OpenAI-compatible base URL; ``None`` for the embedded model.
        model: The model name sent with every request.
        local_model_path: A GGUF to serve instead of the shipped model, if set.
        cache_dir: Directory where the shipped model is assembled once.
        n_threads: CPU threads for llama.cpp; ``None`` means all cores.
        n_ctx: Context window of the embedded model, in tokens.
        server_api_key: Key required by ``toolkit serve`` from its clients, if set.
        timeout: Seconds to wait for one model reply.
    """

    provider: Provider = "local"
    api_key: SecretStr | None = field(default=None, repr=True)
    base_url: str | None = None
    model: str = LOCAL_MODEL_NAME
    local_model_path: Path | None = None
    cache_dir: Path = field(default_factory=lambda: Path.home() / ".cache" / "toolkit")
    n_threads: int | None = None
    n_ctx: int = 4096
    server_api_key: SecretStr | None = None
    timeout: float = 120.0

    @property
    def is_local(self) -> bool:
        """Whether the embedded local model answers (no provider configured)."""
        return self.provider == "local"

    def with_overrides(self, **changes: Any) -> Settings:
        """Return a copy with some fields replaced.

        Args:
            **changes: Field names and their new values.

        Returns:
            The new settings.
        """
        return replace(self, **changes)


def _read_sources(env_file: str | os.PathLike[str] | None, environ: Mapping[str, str]) -> dict:
    path = env_file if env_file is not None else environ.get("TOOLKIT_ENV_FILE", ".env")
    merged: dict[str, str] = {}
    if path and Path(path).is_file():
        merged.update({k: v for k, v in dotenv_values(path).items() if v is not None})
    merged.update({k: v for k, v in environ.items() if k in ENV_VARS})
    return {k: v.strip() for k, v in merged.items() if v is not None and v.strip()}


def _number(values: dict, name: str, kind: type, default: Any) -> Any:
    raw = values.get(name)
    if raw is None:
        return default
    try:
        number = kind(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not a {kind.__name__}; set it to a number.") from None
    if number <= 0:
        raise ConfigError(f"{name}={raw!r} must be positive; set it to a number above 0.")
    return number


def _remote(values: dict) -> tuple[Provider, str | None, str | None]:
    if "QWEN_API_KEY" in values:
        return "qwen", values["QWEN_API_KEY"], values.get("QWEN_BASE_URL", DASHSCOPE_BASE_URL)
    base = values.get("OPENAI_BASE_URL") or values.get("OPENAI_API_BASE")
    if "OPENAI_API_KEY" in values:
        return "openai", values["OPENAI_API_KEY"], base
    base = values.get("QWEN_BASE_URL") or base
    if base:
        return "custom", None, base
    return "local", None, None


def load_settings(
    env_file: str | os.PathLike[str] | None = None,
    environ: Mapping[str, str] | None = None,
    **overrides: Any,
) -> Settings:
    """Resolve settings from overrides, the environment and a ``.env`` file.

    Args:
        env_file: The ``.env`` file to read; default ``TOOLKIT_ENV_FILE`` or ``./.env``.
        environ: The environment to read; default ``os.environ``.
        **overrides: Settings fields that win over everything else.

    Returns:
        The frozen settings.

    Raises:
        ConfigError: A variable has an invalid value, or ``TOOLKIT_PROVIDER=remote`` is set
            without a provider.
    """
    values = _read_sources(env_file, os.environ if environ is None else environ)
    choice = values.get("TOOLKIT_PROVIDER", "auto").lower()
    if choice not in {"auto", "local", "remote"}:
        raise ConfigError(f"TOOLKIT_PROVIDER={choice!r} is not valid; use auto, local or remote.")
    provider, key, base_url = ("local", None, None) if choice == "local" else _remote(values)
    if choice == "remote" and provider == "local":
        raise ConfigError(
            "TOOLKIT_PROVIDER=remote but no provider is configured: set QWEN_API_KEY, or "
            "OPENAI_API_KEY (with OPENAI_BASE_URL for a provider other than OpenAI)."
        )
    model = values.get("TOOLKIT_MODEL") or (
        LOCAL_MODEL_NAME if provider == "local" else _DEFAULT_REMOTE_MODEL[provider]
    )
    settings = Settings(
        provider=provider,
        api_key=SecretStr(key) if key else None,
        base_url=base_url.rstrip("/") if base_url else None,
        model=model,
        local_model_path=Path(values["TOOLKIT_MODEL_PATH"]).expanduser()
        if "TOOLKIT_MODEL_PATH" in values
        else None,
        cache_dir=Path(values["TOOLKIT_CACHE_DIR"]).expanduser()
        if "TOOLKIT_CACHE_DIR" in values
        else Path.home() / ".cache" / "toolkit",
        n_threads=_number(values, "TOOLKIT_THREADS", int, None),
        n_ctx=_number(values, "TOOLKIT_CONTEXT", int, 4096),
        server_api_key=SecretStr(values["TOOLKIT_SERVER_API_KEY"])
        if "TOOLKIT_SERVER_API_KEY" in values
        else None,
        timeout=_number(values, "TOOLKIT_TIMEOUT", float, 120.0),
    )
    return settings.with_overrides(**overrides) if overrides else settings
