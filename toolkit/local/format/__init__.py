"""Pure formats of the embedded server: what a request, a prompt, a grammar and an answer look like.

``job`` (the request as data), ``template`` (messages and tools -> the prompt), ``json_grammar``,
``json_numbers`` and ``grammar`` (schemas -> GBNF), ``structured`` (response formats: which
schemas the grammar enforces, the answer's grammar), ``parser`` (model text -> ``tool_calls``),
``json_scan`` (JSON read while it streams), ``events`` (what an answer yields), ``stops`` (stop
strings). None of them loads llama.cpp, FastAPI or uvicorn.
"""

__all__: list[str] = []
