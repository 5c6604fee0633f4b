"""The embedded default model: our own OpenAI-compatible server on llama.cpp."""
