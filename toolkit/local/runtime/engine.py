"""The llama.cpp model behind the embedded server: load once, evaluate, generate, count tokens.

:class:`Engine` wraps one ``llama_cpp.Llama``. It is not thread-safe: the server serialises
requests with a lock. What it adds to llama.cpp:

* **Next-token log-probabilities** after a prompt (:meth:`Engine.next_token_logprobs`), the
  input of the tool-versus-text decision; the generation that follows reuses the evaluated
  prompt (llama.cpp's KV cache keeps the longest common prefix between requests too).
* **Grammar-constrained decoding** with compiled grammars cached by their text. The sampler
  first proposes the unconstrained choice and asks the grammar only whether that one token is
  allowed; the whole vocabulary (152k tokens) is masked only when it is not. This keeps a
  grammar nearly free when the model already follows it.
* **Prompt-lookup decoding**, off unless asked for (:mod:`toolkit.local.runtime.lookup`): a
  short guess of the next tokens, taken from the context, is evaluated in the same batch as each
  token (on 2 cores a small batch costs about its tokens one by one, so it does not pay there).
* **The same text in other tokens** (:mod:`toolkit.local.runtime.respell`): where a new prompt
  spells what the evaluated context holds in other tokens (a call the model wrote, rendered
  again), the evaluated tokens are kept instead of evaluating the rest again.
* **A forced opening**: text the grammar admits as the only start of the output (the
  ``<tool_call>`` scaffolding and the tool's name of a call whose tool is chosen) is written in
  its own tokens and evaluated with the prompt in one batch, instead of one token at a time.
* Greedy decoding at temperature 0, seeded sampling otherwise, stop strings (never split
  across streamed pieces), UTF-8 pieces that never cut a character, token counts.

Weights load without llama.cpp's AMX buffers where those would crash
(:mod:`toolkit.local.runtime.cpu`).
"""

from __future__ import annotations

import codecs
import contextlib
import os
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import llama_cpp
import llama_cpp.llama_cpp as llama_lib
import numpy as np

from toolkit.config import Settings
from toolkit.errors import ContextWindowError, LocalModelError
from toolkit.local.format.grammar import use_token_references
from toolkit.local.format.job import SamplingOptions
from toolkit.local.format.stops import find_stop, held_back
from toolkit.local.runtime.cpu import build_has_amx, plain_cpu_buffers
from toolkit.local.runtime.generation import Generation, pick_token, token_logprob
from toolkit.local.runtime.grammar_sampler import TOKEN_DATA, CompiledGrammar
from toolkit.local.runtime.lookup import LookupFeeder
from toolkit.local.runtime.prefix_cache import PrefixCache, put_state, state_of
from toolkit.local.runtime.respell import same_text
from toolkit.local.runtime.vocabulary import Vocabulary

__all__ = ["Engine"]

_LOAD_LOCK = threading.Lock()
#: Tag texts that grammars should match as the model's own special tokens when it has them.
_MARKERS = ("<tool_call>", "</tool_call>")
_GREEDY = SamplingOptions()
#: Shortest system turn worth keeping in the prefix cache, in tokens.
_MIN_PREFIX_TOKENS = 64
#: Compiled grammars kept per engine (the oldest is freed when one more is compiled).
_GRAMMAR_CACHE = 64


class Engine(Vocabulary):
    """One loaded GGUF model.

    Args:
        model_path: The GGUF file.
        n_ctx: Context window in tokens.
        n_threads: CPU threads; ``None`` uses every core.
        vocab_only: Load only the vocabulary and metadata (tokenize, chat template), not the
            weights: fast, but it cannot generate.
        lookup_tokens: With greedy decoding, most tokens guessed from the context and checked
            in one batch (:mod:`toolkit.local.runtime.lookup`); 0 (the default) evaluates one
            token at a time, which is faster on 2 cores, where a small batch costs about as
            much as its tokens one by one. The choices are the same up to the rounding of
            batched evaluation.
        prefix_dir: Where the evaluated system turns of prompts are kept across runs
            (:mod:`toolkit.local.runtime.prefix_cache`); ``None`` keeps them in memory only.

    Raises:
        LocalModelError: The file cannot be loaded (missing, truncated or corrupt).
    """

    def __init__(
        self,
        model_path: str | os.PathLike[str],
        *,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        vocab_only: bool = False,
        lookup_tokens: int = 0,
        prefix_dir: str | os.PathLike[str] | None = None,
    ) -> None:
        self.model_path = Path(model_path)
        self.lookup_tokens = lookup_tokens
        #: Write a generation's ``opening`` (False: the model chooses it token by token).
        self.write_openings = True
        #: Keep the evaluated tokens where a prompt spells them in other tokens (False:
        #: evaluate from the first differing token).
        self.respell = True
        threads = n_threads or os.cpu_count() or 1
        guard = plain_cpu_buffers() if build_has_amx() else contextlib.nullcontext()
        try:
            with _LOAD_LOCK, guard:
                self._llm = llama_cpp.Llama(
                    model_path=str(self.model_path),
                    n_ctx=n_ctx,
                    n_threads=threads,
                    n_threads_batch=threads,
                    vocab_only=vocab_only,
                    verbose=False,
                )
        except (ValueError, RuntimeError, OSError) as exc:
            raise LocalModelError(
                f"llama.cpp cannot load {str(self.model_path)!r} ({exc}); the file is missing, "
                "truncated or not a supported GGUF model. If it is the shipped model, delete it "
                "(it is rebuilt from the installed packages); otherwise fix TOOLKIT_MODEL_PATH."
            ) from exc
        Vocabulary.__init__(self, self._llm)
        self._grammars: dict[str, CompiledGrammar] = {}
        self._scratch = np.zeros(self.n_vocab, dtype=TOKEN_DATA)
        self._scratch["id"] = np.arange(self.n_vocab, dtype=np.int32)
        self._logits: np.ndarray | None = None
        #: The last prompt evaluated and the logits after it (a repeated request reuses them).
        self._prompt: tuple[int, ...] = ()
        self._prompt_logits = np.zeros(0, dtype=np.float32)
        #: Prompt tokens evaluated so far (those the KV cache or a saved state did not hold).
        self.prompt_evaluated = 0
        #: Held by whoever uses the model: it serves one request at a time.
        self.lock = threading.Lock()
        self._markers = {m: m for m in _MARKERS if self.token_id(m) is not None}
        self.prefixes: PrefixCache | None = None
        if not vocab_only:
            stat = self.model_path.stat()
            identity = f"{self.model_path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}|{n_ctx}"
            where = Path(prefix_dir) if prefix_dir is not None else None
            self.prefixes = PrefixCache(self._llm, identity, where)

    @classmethod
    def from_settings(cls, settings: Settings, model_path: str | os.PathLike[str]) -> Engine:
        """Load a model with the context size and threads from the settings.

        Args:
            settings: The resolved settings.
            model_path: The GGUF file (see
                :func:`toolkit.local.runtime.weights.resolve_model_path`).

        Returns:
            The loaded engine.
        """
        return cls(
            model_path,
            n_ctx=settings.n_ctx,
            n_threads=settings.n_threads,
            prefix_dir=settings.cache_dir / "prefix-states",
        )

    @property
    def n_ctx(self) -> int:
        """The context window, in tokens."""
        return self._llm.n_ctx()

    @property
    def metadata(self) -> dict[str, str]:
        """The GGUF metadata (string values)."""
        return dict(self._llm.metadata)

    @property
    def chat_template(self) -> str | None:
        """The model's own chat template (``tokenizer.chat_template``), if the file has one."""
        return self._llm.metadata.get("tokenizer.chat_template") or None

    def _evaluate(self, tokens: Sequence[int], *, fresh: bool = False) -> np.ndarray:
        llm = self._llm
        if not tokens:
            raise LocalModelError("cannot generate from an empty prompt.")
        if len(tokens) >= self.n_ctx:
            raise ContextWindowError(len(tokens), self.n_ctx)
        if not fresh:
            tokens = self._aligned(tokens)
        common = 0 if fresh else self._common_prefix(tokens)
        if common == len(tokens) == llm.n_tokens and self._logits is not None:
            return self._logits
        if not fresh and common == len(tokens) and self._prompt == tuple(tokens):
            # The same prompt again (the same request, streamed this time): its logits as
            # first read, not the last token read again alone, whose logits round otherwise.
            llm.n_tokens = common
            self._logits = self._prompt_logits.copy()
            return self._logits
        system = self._system_turn(tokens)
        if self.prefixes is not None and not fresh and common < system < len(tokens):
            if not self.prefixes.restore(tokens[:system]):
                llm.n_tokens = min(common, llm.n_tokens)
                self.prompt_evaluated += system - llm.n_tokens
                llm.eval(list(tokens[llm.n_tokens : system]))
                self.prefixes.store(tokens[:system])
            common = system
        common = min(common, len(tokens) - 1)  # re-evaluate at least one token for its logits
        llm.n_tokens = common
        self.prompt_evaluated += len(tokens) - common
        llm.eval(list(tokens[common:]))
        logits = self._read_logits()
        self._prompt, self._prompt_logits = tuple(tokens), logits.copy()
        return logits

    @contextlib.contextmanager
    def aside(self) -> Iterator[None]:
        """Evaluate other prompts inside, then have the context back as it was.

        A decision that asks the model something in a prompt of its own (an arithmetic
        expression) would otherwise leave the context holding that prompt, and the next
        request of the conversation would evaluate its own again. The context's KV state is
        copied out first (a few MB) and put back after; should that fail, the next
        evaluation starts over, as it would have without it.
        """
        llm = self._llm
        tokens = llm.input_ids[: llm.n_tokens].copy()
        data = state_of(llm) if len(tokens) else None
        kept = self._prompt, self._prompt_logits, self._logits
        try:
            yield
        finally:
            if data is not None and put_state(llm, data, tokens):
                self._prompt, self._prompt_logits, self._logits = kept

    def _aligned(self, tokens: Sequence[int]) -> Sequence[int]:
        """The prompt with the evaluated tokens in place of a stretch that spells the same text
        in other tokens (a call the model wrote, rendered again: :mod:`~toolkit.local.runtime.
        respell`), so that the KV cache is kept for it."""
        llm = self._llm
        common = self._common_prefix(tokens)
        if not self.respell or not 0 < common < min(len(tokens), llm.n_tokens):
            return tokens
        cached = llm.input_ids[common : llm.n_tokens].tolist()
        kept, spelled = same_text(cached, tokens[common:], self.spelling)
        if not kept:
            return tokens
        return [*tokens[:common], *cached[:kept], *tokens[common + spelled :]]

    def _common_prefix(self, tokens: Sequence[int]) -> int:
        llm = self._llm
        current = llm.input_ids[: llm.n_tokens]
        limit = min(len(current), len(tokens))
        differs = np.nonzero(current[:limit] != np.asarray(tokens[:limit]))[0]
        return int(differs[0]) if len(differs) else limit

    def _system_turn(self, tokens: Sequence[int]) -> int:
        """Tokens up to and including the first end of turn (0 when too short to keep)."""
        ends = np.flatnonzero(np.isin(np.asarray(tokens), self.end_tokens()))
        length = int(ends[0]) + 1 if len(ends) else 0
        return length if length >= _MIN_PREFIX_TOKENS else 0

    def _read_logits(self) -> np.ndarray:
        pointer = llama_lib.llama_get_logits_ith(self._llm.ctx, -1)
        self._logits = np.ctypeslib.as_array(pointer, shape=(self.n_vocab,)).copy()
        return self._logits

    def next_token_logprobs(self, tokens: Sequence[int]) -> np.ndarray:
        """Evaluate a prompt and return the log-probabilities of the next token.

        A following :meth:`generate` on the same tokens starts from this evaluation.

        Args:
            tokens: The prompt tokens.

        Returns:
            An array of ``n_vocab`` natural-log probabilities.

        Raises:
            ContextWindowError: The prompt does not fit the context window.
        """
        logits = self._evaluate(tokens).astype(np.float64)
        shifted = logits - logits.max()
        return shifted - np.log(np.exp(shifted).sum())

    def _grammar(self, text: str) -> CompiledGrammar:
        grammar = self._grammars.get(text)
        if grammar is None:
            if len(self._grammars) >= _GRAMMAR_CACHE:
                self._grammars.pop(next(iter(self._grammars))).close()
            adapted = use_token_references(text, self._markers)
            grammar = self._grammars[text] = CompiledGrammar(self._vocab, adapted)
        grammar.reset()
        return grammar

    def generate(
        self,
        tokens: Sequence[int],
        options: SamplingOptions = _GREEDY,
        *,
        grammar: str | None = None,
        cancel: threading.Event | None = None,
        ban_first: np.ndarray | Sequence[int] | None = None,
        opening: str = "",
    ) -> Generation:
        """Start generating after a prompt; iterate the result for text pieces.

        Args:
            tokens: The prompt tokens.
            options: Sampling options.
            grammar: GBNF text constraining the output, or ``None``.
            cancel: Set it to stop early (e.g. the client went away).
            ban_first: Token ids the first generated token may not be.
            opening: Text the output starts with, known in advance (what the grammar forces):
                its tokens are written, not chosen, and evaluated with the prompt in one batch.
                They are part of the output and its counts. Ignored when log-probabilities
                are asked for (a written token has none) or with ``ban_first``.

        Returns:
            A :class:`Generation`; iterating it yields text pieces, and its counts and
            finish reason are final once the iteration ends.

        Raises:
            ContextWindowError: The prompt does not fit the context window.
            LocalModelError: llama.cpp rejects the grammar.
        """
        scored = options.top_logprobs is not None
        budget = max(0, min(options.max_tokens, self.n_ctx - len(tokens)))
        writes = opening and self.write_openings and not scored and ban_first is None
        written = self.tokenize(opening, bos=False) if writes else []
        written = written[: max(0, budget - 1)]
        compiled = self._grammar(grammar) if grammar else None
        if compiled is not None:
            for token in written:
                if not compiled.allows(token):
                    raise LocalModelError(f"the grammar does not admit the opening {opening!r}.")
                compiled.accept(token)
        # Seeded sampling re-reads the prompt: cached evaluation differs in the last bits, and a
        # sample can follow them; afresh, the same request draws the same answer.
        fresh = options.seed is not None and options.temperature > 0
        logits = self._evaluate([*tokens, *written], fresh=fresh)
        if ban_first is not None and len(ban_first):
            logits = logits.copy()
            logits[np.asarray(ban_first, dtype=np.int64)] = -np.inf
        generation = Generation(prompt_tokens=len(tokens), logprobs=[] if scored else None)
        generation._pieces = self._run(
            logits, options, compiled, budget, generation, cancel, written
        )
        return generation

    def _choose(
        self,
        logits: np.ndarray,
        options: SamplingOptions,
        grammar: CompiledGrammar | None,
        rng: np.random.Generator,
    ) -> tuple[int, np.ndarray]:
        """The next token, and the logits it was drawn from (masked by the grammar whenever
        log-probabilities are recorded, so that they are those of the allowed tokens)."""
        if grammar is not None:
            # A grammar reads a control token (<|im_start|>...) as its text, which the output
            # never shows: the text would escape the grammar. Under a grammar they are banned.
            logits = logits.copy()
            logits[self._controls] = -np.inf
        if grammar is None or options.top_logprobs is None:
            token = pick_token(logits, options, rng)
            if grammar is None or grammar.allows(token):
                return token, logits
        masked = grammar.mask(logits, self._scratch)
        if not np.isfinite(masked).any():
            raise LocalModelError("the grammar allows no next token; the grammar is broken.")
        return pick_token(masked, options, rng), masked

    def _run(
        self,
        logits: np.ndarray,
        options: SamplingOptions,
        grammar: CompiledGrammar | None,
        budget: int,
        generation: Generation,
        cancel: threading.Event | None,
        written: Sequence[int] = (),
    ) -> Iterator[str]:
        generation.finish_reason = "length"
        feeder = None
        if options.temperature <= 0 and self.lookup_tokens > 0:
            feeder = LookupFeeder(self._llm, self.n_vocab, length=self.lookup_tokens)
        try:
            yield from self._loop(
                logits, options, grammar, budget, generation, cancel, feeder, written
            )
        finally:
            if feeder is not None:
                feeder.settle()
                generation.evaluations = feeder.batches

    def _loop(
        self,
        logits: np.ndarray,
        options: SamplingOptions,
        grammar: CompiledGrammar | None,
        budget: int,
        generation: Generation,
        cancel: threading.Event | None,
        feeder: LookupFeeder | None,
        written: Sequence[int] = (),
    ) -> Iterator[str]:
        rng = np.random.default_rng(None if options.seed is None else options.seed % 2**64)
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        stops = tuple(s for s in options.stop if s)
        text, emitted = "", 0
        opening = list(written)  # already accepted by the grammar and evaluated with the prompt
        while generation.completion_tokens < budget:
            if cancel is not None and cancel.is_set():
                generation.finish_reason = "stop"
                break
            taken = bool(opening)
            if taken:
                token, drawn_from = opening.pop(0), logits
            else:
                token, drawn_from = self._choose(logits, options, grammar, rng)
                if self.is_end(token):
                    generation.finish_reason = "stop"
                    break
                if grammar is not None:
                    grammar.accept(token)
            generation.completion_tokens += 1
            generation.written += taken
            generation.tokens.append(token)
            if generation.logprobs is not None:
                scored = token_logprob(drawn_from, token, options.top_logprobs or 0, self.piece)
                generation.logprobs.append(scored)
            text += decoder.decode(self.piece(token))
            cut = find_stop(text, stops, emitted)
            if cut is not None:
                text = text[:cut]
                generation.finish_reason = "stop"
                decoder = None
                break
            safe = len(text) - held_back(text, stops)
            if safe > emitted:
                generation.text = text[:safe]
                yield text[emitted:safe]
                emitted = safe
            if taken:
                continue  # the opening's tokens and their logits are in the context already
            if generation.completion_tokens < budget:
                if feeder is None:
                    self._llm.eval([token])
                    logits = self._read_logits()
                else:
                    logits = self._logits = feeder.advance(token)
        if decoder is not None:
            text += decoder.decode(b"", final=True)
        generation.text = text
        if len(text) > emitted:
            yield text[emitted:]

    def reset(self) -> None:
        """Forget the evaluated context: the next prompt is evaluated from its first token."""
        self._llm.reset()
        self._logits = None
        self._prompt = ()

    def close(self) -> None:
        """Free the model and its compiled grammars."""
        for grammar in self._grammars.values():
            grammar.close()
        self._grammars.clear()
        self._llm.close()
