"""LangChain's own standard integration tests for chat models, on the embedded server."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_openai import ChatOpenAI
from langchain_tests.integration_tests import ChatModelIntegrationTests


class TestEmbeddedChatOpenAI(ChatModelIntegrationTests):
    base_url = ""

    @pytest.fixture(autouse=True)
    def _server(self, local_server) -> None:
        type(self).base_url = local_server.base_url

    @property
    def chat_model_class(self) -> type[ChatOpenAI]:
        return ChatOpenAI

    @property
    def chat_model_params(self) -> dict[str, Any]:
        return {"model": "local", "base_url": self.base_url, "api_key": "local", "stream_usage": True}
