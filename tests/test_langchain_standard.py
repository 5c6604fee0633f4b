"""LangChain's own standard integration tests for chat models, on the embedded server.

``langchain-tests``' :class:`ChatModelIntegrationTests` is how LangChain's integrations prove
conformance: invoke, stream, batch, async, usage metadata, stop sequences, tool calling and
tool choice, tool message histories, structured output (``json_schema`` by default, pydantic,
TypedDict and JSON schema, optional fields) and JSON mode. Here it runs on ``ChatOpenAI``
pointed at the embedded server over real HTTP, as a user's client would, with
``stream_usage=True``. What the model cannot do is declared below (its skips say so): it reads
no images, audio, PDF or video, takes no Anthropic-style content blocks, and serves one model,
so a per-call model override has nothing to switch to. ``test_stream_time`` needs recorded
HTTP cassettes (VCR), which a local server has no use for.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_openai import ChatOpenAI
from langchain_tests.integration_tests import ChatModelIntegrationTests

from toolkit.local.server.runner import EmbeddedServer


class TestEmbeddedChatOpenAI(ChatModelIntegrationTests):
    """``ChatOpenAI`` on the embedded server, through LangChain's standard suite."""

    server: EmbeddedServer | None = None

    @pytest.fixture(autouse=True)
    def _on_the_embedded_server(self, local_server: EmbeddedServer) -> None:
        type(self).server = local_server

    @property
    def chat_model_class(self) -> type[ChatOpenAI]:
        return ChatOpenAI

    @property
    def chat_model_params(self) -> dict[str, Any]:
        server = type(self).server
        assert server is not None, "the local_server fixture starts the server first"
        return {
            "model": "local",
            "base_url": server.base_url,
            "api_key": server.api_key or "local",
            "stream_usage": True,
            # Room for every answer the suite asks for (a joke as JSON takes ~50 tokens), and a
            # bound on the small model's rambling, as the suite's unit tests set one.
            "max_tokens": 256,
        }

    @property
    def has_tool_calling(self) -> bool:
        return True

    @property
    def has_tool_choice(self) -> bool:
        return True

    @property
    def has_structured_output(self) -> bool:
        return True

    @property
    def supports_json_mode(self) -> bool:
        return True

    @property
    def returns_usage_metadata(self) -> bool:
        return True

    @property
    def supports_image_inputs(self) -> bool:
        return False

    @property
    def supports_image_urls(self) -> bool:
        return False

    @property
    def supports_image_tool_message(self) -> bool:
        return False

    @property
    def supports_pdf_inputs(self) -> bool:
        return False

    @property
    def supports_pdf_tool_message(self) -> bool:
        return False

    @property
    def supports_audio_inputs(self) -> bool:
        return False

    @property
    def supports_video_inputs(self) -> bool:
        return False

    @property
    def supports_anthropic_inputs(self) -> bool:
        return False

    @property
    def supports_model_override(self) -> bool:
        return False
