"""The llama.cpp runtime of the embedded server.

``weights`` (the shipped GGUF, assembled and checked), ``engine`` (load, evaluate, generate),
``grammar_sampler`` (llama.cpp's grammar sampler), ``lookup`` (prompt-lookup decoding),
``cpu`` (loading weights where llama.cpp's AMX buffers would crash).
"""

__all__: list[str] = []
