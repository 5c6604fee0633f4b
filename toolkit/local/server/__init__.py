"""The embedded model served over HTTP: OpenAI's chat-completions API on FastAPI.

``protocol`` (the request body read and validated), ``schemas`` (the response bodies), ``app``
(the FastAPI application and its routes), ``bodies`` (decoder events -> a completion or SSE
chunks), ``runner`` (uvicorn in a background thread on a free loopback port).
"""

__all__: list[str] = []
