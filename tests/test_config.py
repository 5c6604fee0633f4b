"""Settings resolution: precedence, providers, secrets and bad values."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from toolkit.config import DASHSCOPE_BASE_URL, LOCAL_MODEL_NAME, load_settings
from toolkit.errors import ConfigError

CANARY = "sk-canary-0123456789abcdef"


def test_nothing_configured_means_the_embedded_model() -> None:
    settings = load_settings(environ={})
    assert settings.is_local
    assert settings.model == LOCAL_MODEL_NAME
    assert settings.api_key is None and settings.base_url is None


def test_seed_names_configure_qwen_with_dashscope_default() -> None:
    settings = load_settings(environ={"QWEN_API_KEY": CANARY})
    assert settings.provider == "qwen"
    assert settings.base_url == DASHSCOPE_BASE_URL
    assert settings.model == "qwen-plus"
    assert settings.api_key.get_secret_value() == CANARY


def test_qwen_names_win_over_openai_names() -> None:
    settings = load_settings(
        environ={"QWEN_API_KEY": "q", "OPENAI_API_KEY": "o", "OPENAI_BASE_URL": "http://x/v1"}
    )
    assert settings.provider == "qwen"
    assert settings.api_key.get_secret_value() == "q"


@pytest.mark.parametrize("name", ["OPENAI_BASE_URL", "OPENAI_API_BASE"])
def test_openai_base_url_under_both_names(name: str) -> None:
    settings = load_settings(environ={"OPENAI_API_KEY": "k", name: "http://127.0.0.1:9/v1/"})
    assert settings.provider == "openai"
    assert settings.base_url == "http://127.0.0.1:9/v1"


def test_base_url_alone_is_a_keyless_server() -> None:
    settings = load_settings(environ={"OPENAI_BASE_URL": "http://127.0.0.1:8000/v1"})
    assert settings.provider == "custom"
    assert settings.api_key is None


def test_environment_wins_over_dotenv_file(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("OPENAI_API_KEY=from-file\nTOOLKIT_MODEL=file-model\n", encoding="utf-8")
    settings = load_settings(env_file=env_file, environ={"TOOLKIT_MODEL": "env-model"})
    assert settings.api_key.get_secret_value() == "from-file"
    assert settings.model == "env-model"


def test_env_file_variable_names_the_file(tmp_path: Path) -> None:
    env_file = tmp_path / "custom.env"
    env_file.write_text("QWEN_API_KEY=abc\n", encoding="utf-8")
    settings = load_settings(environ={"TOOLKIT_ENV_FILE": str(env_file)})
    assert settings.provider == "qwen"


def test_overrides_win_over_everything() -> None:
    settings = load_settings(environ={"TOOLKIT_MODEL": "a"}, model="b")
    assert settings.model == "b"


def test_provider_local_forces_the_embedded_model() -> None:
    settings = load_settings(environ={"OPENAI_API_KEY": "k", "TOOLKIT_PROVIDER": "local"})
    assert settings.is_local


def test_provider_remote_without_provider_says_what_to_set() -> None:
    with pytest.raises(ConfigError, match=r"QWEN_API_KEY.*OPENAI_API_KEY"):
        load_settings(environ={"TOOLKIT_PROVIDER": "remote"})


@pytest.mark.parametrize(
    ("name", "value"),
    [("TOOLKIT_THREADS", "many"), ("TOOLKIT_CONTEXT", "-5"), ("TOOLKIT_TIMEOUT", "soon")],
)
def test_bad_numbers_name_the_variable(name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        load_settings(environ={name: value})


def test_bad_provider_choice_is_refused() -> None:
    with pytest.raises(ConfigError, match="auto, local or remote"):
        load_settings(environ={"TOOLKIT_PROVIDER": "cloud"})


def test_keys_never_appear_in_repr_or_str() -> None:
    settings = load_settings(
        environ={"OPENAI_API_KEY": CANARY, "TOOLKIT_SERVER_API_KEY": CANARY + "x"}
    )
    assert CANARY not in repr(settings)
    assert CANARY not in str(settings)
    assert "**********" in repr(settings)


def test_dotenv_file_does_not_change_the_process_environment(tmp_path: Path, monkeypatch) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("OPENAI_API_KEY=from-file\n", encoding="utf-8")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    load_settings(env_file=env_file)
    assert "OPENAI_API_KEY" not in os.environ
