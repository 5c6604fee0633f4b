"""load_chat_model with a configured provider: the seed's init_chat_model path."""

from __future__ import annotations

from langchain_openai import ChatOpenAI

from toolkit.config import load_settings
from toolkit.models import load_chat_model

CANARY = "sk-canary-models-42"


def test_provider_model_is_chat_openai_pointed_at_the_base_url() -> None:
    settings = load_settings(
        environ={"OPENAI_API_KEY": CANARY, "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}
    )
    model = load_chat_model(settings)
    assert isinstance(model, ChatOpenAI)
    assert model.openai_api_base == "http://127.0.0.1:9/v1"
    assert model.model_name == "gpt-4o-mini"
    assert model.openai_api_key.get_secret_value() == CANARY


def test_provider_model_never_shows_the_key() -> None:
    settings = load_settings(environ={"QWEN_API_KEY": CANARY})
    model = load_chat_model(settings)
    assert CANARY not in repr(model)
    assert CANARY not in str(model.model_dump())


def test_model_kwargs_pass_through() -> None:
    settings = load_settings(environ={"OPENAI_API_KEY": "k"}, model="qwen-plus")
    model = load_chat_model(settings, temperature=0.3, max_retries=5)
    assert model.model_name == "qwen-plus"
    assert model.temperature == 0.3
    assert model.max_retries == 5
