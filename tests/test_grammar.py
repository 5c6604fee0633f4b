"""GBNF grammars from tool schemas, checked with llama.cpp's own grammar engine.

Every grammar is compiled by llama.cpp against the shipped model's vocabulary. Sample strings
are fed to the grammar sampler token by token, and random walks (uniform choices among the
tokens the grammar allows: an adversarial "model") check that whatever a constrained model
emits parses into calls whose arguments validate against their tool's JSON schema.
"""

from __future__ import annotations

import ctypes
import io
import json
import os
import random
from pathlib import Path

import jsonschema
import llama_cpp
import pytest
from rich.console import Console

from toolkit.config import Settings
from toolkit.errors import PromptError
from toolkit.local.decision.phrases import conversation_phrases
from toolkit.local.format.grammar import calls_grammar, text_grammar
from toolkit.local.format.parser import parse_tool_calls
from toolkit.local.runtime.weights import resolve_model_path
from toolkit.wire import forced_tool_name


def _tool(name: str, parameters: dict | None, description: str = "") -> dict:
    function = {"name": name, "description": description}
    if parameters is not None:
        function["parameters"] = parameters
    return {"type": "function", "function": function}


def _grammar(tools, choice="required", parallel=True, *, plain_start=True) -> str:
    """The grammar the decoder uses once it has decided: text for "none", calls otherwise."""
    if choice == "none":
        return text_grammar(plain_start=plain_start)
    names = None if choice == "required" else [forced_tool_name(choice)]
    return calls_grammar(tools, names=names, max_calls=None if parallel else 1)


GET_WEATHER = _tool(
    "get_weather",
    {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "城市名称"},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        },
        "required": ["city"],
    },
)
ADD = _tool(
    "add",
    {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
    },
)
NOW = _tool("now", {"type": "object", "properties": {}})
#: The JSON-schema features LangChain and pydantic emit, in one tool.
SEARCH = _tool(
    "search",
    {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "Text to look for."},
            "limit": {"type": "integer", "default": 10, "minimum": 1},
            "offset": {"type": "integer", "minimum": 0},
            "ratio": {"type": "number"},
            "tags": {"type": "array", "items": {"enum": ["a", "b"]}, "maxItems": 2},
            "owner": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
            "filters": {
                "type": "object",
                "properties": {"field": {"type": "string"}, "op": {"enum": ["eq", "ne"]}},
                "required": ["field", "op"],
            },
            "meta": {"type": "object", "additionalProperties": {"type": "integer"}},
            "extra": {},
            "untyped": {"description": "anything at all"},
            "flag": {"type": "boolean"},
            "kind": {"type": ["string", "integer"]},
            "point": {"$ref": "#/$defs/Point"},
            "box": {
                "allOf": [
                    {"properties": {"x": {"type": "number"}}, "required": ["x"]},
                    {"properties": {"w": {"type": "number"}}},
                ]
            },
            "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]},
            "code": {"type": "string", "minLength": 1, "maxLength": 3},
            "mode": {"const": "fast"},
        },
        "required": ["query", "filters"],
        "$defs": {
            "Point": {
                "type": "object",
                "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
                "required": ["x", "y"],
            }
        },
    },
)
TREE = _tool(
    "plant",
    {
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/Node"}},
        "required": ["tree"],
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {
                    "label": {"type": "string", "maxLength": 2},
                    "kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}, "maxItems": 2},
                },
                "required": ["label"],
            }
        },
    },
)
OPEN = _tool(
    "configure",
    {"type": "object", "properties": {"name": {"type": "string"}}, "additionalProperties": True},
)
NO_PARAMS = _tool("ping", None)
TOOLS = [GET_WEATHER, ADD, NOW, SEARCH, TREE, OPEN, NO_PARAMS]


def _closed(schema, close: bool = True):
    """The schema with objects closed the way the grammar closes them (for validation)."""
    if isinstance(schema, list):
        return [_closed(s, close) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _closed(v, k != "allOf") for k, v in schema.items()}
    if close and "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


SCHEMAS = {
    t["function"]["name"]: _closed(
        t["function"].get("parameters", {"type": "object", "properties": {}})
    )
    for t in TOOLS
}

WEATHER_CALL = (
    '<tool_call>\n{"name": "get_weather", "arguments": {"city": "西安", "unit": "celsius"}}\n'
    "</tool_call>"
)
ADD_CALL = '<tool_call>\n{"name": "add", "arguments": {"a": 17, "b": 25}}\n</tool_call>'


class GrammarEngine:
    """llama.cpp's grammar sampler over the shipped model's vocabulary."""

    def __init__(self, model: llama_cpp.Llama) -> None:
        self.model = model
        self.vocab = model._model.vocab
        self.eos = model.token_eos()
        self.open, self.close = (self.tokens(t)[0] for t in ("<tool_call>", "</tool_call>"))
        words = (
            [chr(c) for c in range(32, 127)]
            + list("\n\t北京西安é😀")
            + [
                '": "',
                '", "',
                '"}',
                '"}}',
                "}}\n",
                '{"',
                "get_weather",
                "celsius",
            ]
        )
        found = {t for w in words for t in self.tokens(w)}
        self.candidates = sorted(found | {self.open, self.close, self.eos})
        closers = ('"', "}", "]", "\n")
        self.closing = {t for t in self.candidates if any(c in self.piece(t) for c in closers)} | {
            self.open,
            self.close,
            self.eos,
        }

    def tokens(self, text: str) -> list[int]:
        return self.model.tokenize(text.encode(), add_bos=False, special=True)

    def piece(self, token: int) -> str:
        return self.model.detokenize([token], special=True).decode("utf-8", "replace")

    def sampler(self, grammar: str):
        return llama_cpp.llama_sampler_init_grammar(self.vocab, grammar.encode(), b"root")

    def allowed(self, sampler, tokens: list[int]) -> list[int]:
        data = (llama_cpp.llama_token_data * len(tokens))(
            *(llama_cpp.llama_token_data(t, 0.0, 0.0) for t in tokens)
        )
        array = llama_cpp.llama_token_data_array(data, len(tokens), -1, False)
        llama_cpp.llama_sampler_apply(sampler, ctypes.byref(array))
        return [data[i].id for i in range(len(tokens)) if data[i].logit != float("-inf")]

    def accepts(self, grammar: str, text: str) -> bool:
        """Whether the grammar lets a model emit exactly ``text`` and then stop."""
        sampler = self.sampler(grammar)
        assert sampler, "grammar does not compile"
        try:
            for token in [*self.tokens(text), self.eos]:
                if not self.allowed(sampler, [token]):
                    return False
                if token != self.eos:
                    llama_cpp.llama_sampler_accept(sampler, token)
            return True
        finally:
            llama_cpp.llama_sampler_free(sampler)

    def walk(self, grammar: str, rng: random.Random, steps: int = 500) -> str | None:
        """Emit random grammar-allowed tokens until the end; ``None`` if it runs too long."""
        sampler = self.sampler(grammar)
        assert sampler, "grammar does not compile"
        out: list[int] = []
        try:
            for _ in range(steps):
                allowed = self.allowed(sampler, self.candidates)
                assert allowed, f"grammar dead end after {self.model.detokenize(out)!r}"
                closing = [t for t in allowed if t in self.closing]
                token = rng.choice(closing if closing and rng.random() < 0.5 else allowed)
                if token == self.eos:
                    return self.model.detokenize(out, special=True).decode("utf-8")
                llama_cpp.llama_sampler_accept(sampler, token)
                out.append(token)
            return None
        finally:
            llama_cpp.llama_sampler_free(sampler)


@pytest.fixture(scope="module")
def engine() -> GrammarEngine:
    cache = os.environ.get("TOOLKIT_CACHE_DIR")
    settings = Settings(cache_dir=Path(cache)) if cache else Settings()
    path = resolve_model_path(settings, console=Console(file=io.StringIO()))
    return GrammarEngine(llama_cpp.Llama(model_path=str(path), vocab_only=True, verbose=False))


def _all_forms() -> dict[str, str]:
    return {
        "required": _grammar(TOOLS, "required"),
        "required-single": _grammar(TOOLS, "required", parallel=False),
        "named": _grammar(TOOLS, {"type": "function", "function": {"name": "search"}}),
        "named-bare": _grammar(TOOLS, "plant"),
        "text": text_grammar(),
        "text-any-start": text_grammar(plain_start=False),
        "two-or-three": calls_grammar(TOOLS, min_calls=2, max_calls=3),
    }


def test_every_grammar_form_compiles_in_llama_cpp(engine):
    for form, grammar in _all_forms().items():
        sampler = engine.sampler(grammar)
        assert sampler, f"{form} grammar does not compile:\n{grammar}"
        llama_cpp.llama_sampler_free(sampler)
    assert not engine.sampler("root ::= undefined-rule")  # the check above can fail


def test_llama_cpp_wrapper_takes_the_grammar_text():
    grammar = calls_grammar(TOOLS)
    assert llama_cpp.LlamaGrammar.from_string(grammar)._grammar == grammar


@pytest.mark.parametrize(
    ("choice", "parallel", "text", "ok"),
    [
        ("required", True, WEATHER_CALL, True),
        ("required", True, WEATHER_CALL + "\n" + ADD_CALL, True),
        ("none", True, "Hello! I am Qwen, a helpful assistant.", True),
        ("none", True, "", True),
        ("none", True, "I will call <tool_call> now", False),
        ("required", True, WEATHER_CALL + "\nThe weather is fine.", False),
        ("none", True, "Sure.\n" + WEATHER_CALL, False),
        ("required", True, "Sure.\n" + WEATHER_CALL, False),
        ("required", False, WEATHER_CALL + "\n" + ADD_CALL, False),
        ("required", True, "Hello!", False),
        ("required", True, "", False),
        ("required", True, ADD_CALL + "\n" + ADD_CALL + "\n" + ADD_CALL, True),
        ("required", False, ADD_CALL, True),
        ("required", False, ADD_CALL + "\n" + ADD_CALL, False),
        ("none", True, "Plain words, < and <tool and tool_call> are fine. 北京", True),
        ("none", True, WEATHER_CALL, False),
        ("none", True, "x<<tool_call>", False),
        ("add", True, ADD_CALL, True),
        ("add", True, WEATHER_CALL, False),
        ({"type": "function", "function": {"name": "get_weather"}}, True, WEATHER_CALL, True),
        ({"type": "function", "name": "get_weather"}, True, ADD_CALL, False),
        # Text may not begin like a JSON or fenced call: calls go through <tool_call> blocks.
        ("none", True, '```json\n{"name": "add", "arguments": {"a": 1, "b": 2}}\n```', False),
        ("none", True, '{"name": "add", "arguments": {"a": 1, "b": 2}}', False),
        ("none", True, '[{"name": "add"}]', False),
        ("none", True, " leading space", False),
        ("none", True, 'Here it is: {"a": [1]} and ```code```', True),
        ("none", True, "<b>bold</b>", True),
    ],
)
def test_sample_outputs_are_accepted_or_rejected(engine, choice, parallel, text, ok):
    assert engine.accepts(_grammar(TOOLS, choice, parallel), text) is ok


@pytest.mark.parametrize(
    ("arguments", "ok"),
    [
        ({"city": "西安"}, True),
        ({"city": 'Xi\'an "old" \\ town'}, True),
        ({"unit": "celsius", "city": "西安"}, False),  # schema order is kept
        ({"unit": "celsius"}, False),  # required property missing
        ({"city": "西安", "unit": "kelvin"}, False),  # not in the enum
        ({"city": "西安", "country": "CN"}, False),  # undeclared property
        ({"city": 3}, False),  # wrong type
    ],
)
def test_arguments_must_fit_the_schema(engine, arguments, ok):
    body = json.dumps({"name": "get_weather", "arguments": arguments}, ensure_ascii=False)
    text = f"<tool_call>\n{body}\n</tool_call>"
    assert engine.accepts(_grammar([GET_WEATHER]), text) is ok


def test_plain_start_can_be_turned_off(engine):
    fenced = '```json\n{"name": "add", "arguments": {"a": 1, "b": 2}}\n```'
    assert engine.accepts(text_grammar(plain_start=False), fenced)
    assert not engine.accepts(text_grammar(), fenced)
    assert engine.accepts(text_grammar(plain_start=False), " {}")
    assert not engine.accepts(text_grammar(), " {}")


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("The sum is 11.", True),
        ('He said "arguments are fine" and left.', True),
        ('Call it like {"name": "add", "arguments": {"x": 1}}', False),
        ('"arguments"', False),
        ('x "argument" "argumentsx', True),
        ('""arguments"', False),  # the automaton restarts inside a partial match
        ("Use get_weather(city) to ask.", False),
        ("get_weather is a tool; add (x) too.", True),
        ("你好 <tool_call>", False),
    ],
)
def test_text_may_not_contain_forbidden_strings(engine, text, ok):
    grammar = text_grammar(forbidden=['"arguments"', "get_weather(", "add("])
    assert engine.accepts(grammar, text) is ok


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("北京和西安的气温总和为11摄氏度。", True),
        ("The capital has 2.1 million people; it was -15 °C.", True),
        ("The sum is 12.", False),  # a number nobody stated
        ("It is 111 or 11.5", False),  # stated numbers may not run on into others
        ("It is 11.", True),
        ("No numbers at all.", True),
        ("A <tool_call> is never text, 11 or not", False),
    ],
)
def test_text_may_state_only_the_given_numbers(engine, text, ok):
    assert engine.accepts(text_grammar(numbers=["11", "2.1", "-15", "15"]), text) is ok


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("一共要126支笔。", True),
        ("答案是126，也就是23个男生和19个女生每人3支。", True),
        ("The average is 13.3 degrees.", True),
        ("一共要多少支笔？", False),  # the result left out: the text cannot end
        ("23个男生和19个女生共126支。", False),  # another number before the result
        ("It is 1260.", False),  # the result may not run on into another digit
        ("It is 126 <tool_call>", False),
    ],
)
def test_text_may_be_required_to_state_a_number(engine, text, ok):
    grammar = text_grammar(numbers=["23", "19", "3"], required=["126", "13.3"])
    assert engine.accepts(grammar, text) is ok


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("Route 7 has 38 stops.", True),  # the question's number may come first
        ("Route 7, 38 stops.", True),
        ("There are 38 stops on route 7.", True),
        ("Route 738 stops.", False),  # a passing number may not run on into the result
        ("Route 7.38 stops.", False),
        ("Route 9 has 38 stops.", False),  # a number that is neither
        ("Route 7 has stops.", False),  # the result left out
    ],
)
def test_numbers_that_pass_may_come_before_a_required_one(engine, text, ok):
    grammar = text_grammar(numbers=["7", "38", "1962"], required=["38"], passing=["7"])
    assert engine.accepts(grammar, text) is ok


def test_raw_control_characters_in_strings_are_rejected(engine):
    text = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "a\nb"}}\n</tool_call>'
    assert not engine.accepts(_grammar([GET_WEATHER]), text)


@pytest.mark.parametrize(
    ("arguments", "ok"),
    [
        ({"query": "q", "filters": {"field": "f", "op": "eq"}}, True),
        (
            {
                "query": "q",
                "limit": 5,
                "ratio": -1.5e3,
                "tags": ["a", "b"],
                "owner": None,
                "filters": {"field": "f", "op": "ne"},
                "meta": {"k": 1, "j": 2},
                "extra": [1, {"x": None}],
                "untyped": "s",
                "flag": False,
                "kind": 7,
                "point": {"x": 1, "y": 2.5},
                "box": {"x": 0, "w": 3},
                "pair": [1, "one"],
                "code": "abc",
                "mode": "fast",
            },
            True,
        ),
        ({"query": "q", "filters": {"field": "f", "op": "eq"}, "limit": 0}, False),
        ({"query": "q", "filters": {"field": "f", "op": "eq"}, "offset": -1}, False),
        ({"query": "q", "filters": {"field": "f", "op": "eq"}, "limit": 1.5}, False),
        ({"query": "q", "filters": {"field": "f", "op": "eq"}, "tags": ["a", "a", "b"]}, False),
        ({"query": "q", "filters": {"field": "f", "op": "eq"}, "owner": 3}, False),
        ({"query": "q", "filters": {"field": "f"}}, False),
        ({"query": "q", "filters": {"field": "f", "op": "eq"}, "meta": {"k": "v"}}, False),
        ({"query": "q", "filters": {"field": "f", "op": "eq"}, "point": {"x": 1}}, False),
        ({"query": "q", "filters": {"field": "f", "op": "eq"}, "box": {"w": 1}}, False),
        ({"query": "q", "filters": {"field": "f", "op": "eq"}, "code": ""}, False),
        ({"query": "q", "filters": {"field": "f", "op": "eq"}, "code": "abcd"}, False),
        ({"query": "q", "filters": {"field": "f", "op": "eq"}, "mode": "slow"}, False),
    ],
)
def test_langchain_schema_features_are_enforced(engine, arguments, ok):
    body = json.dumps({"name": "search", "arguments": arguments}, ensure_ascii=False)
    text = f"<tool_call>\n{body}\n</tool_call>"
    assert engine.accepts(_grammar([SEARCH]), text) is ok
    if ok:
        jsonschema.validate(arguments, SCHEMAS["search"])


def test_open_objects_and_missing_parameters(engine):
    grammar = _grammar([OPEN, NO_PARAMS, NOW])
    calls = [
        '{"name": "configure", "arguments": {"name": "x", "depth": 3, "on": true}}',
        '{"name": "configure", "arguments": {"any": [1]}}',
        '{"name": "ping", "arguments": {}}',
        '{"name": "now", "arguments": {}}',
    ]
    for body in calls:
        assert engine.accepts(grammar, f"<tool_call>\n{body}\n</tool_call>"), body
    bad = '{"name": "now", "arguments": {"x": 1}}'
    assert not engine.accepts(grammar, f"<tool_call>\n{bad}\n</tool_call>")


def test_calls_grammar_counts_and_names(engine):
    grammar = calls_grammar(TOOLS, names=["add"], min_calls=2, max_calls=3)
    assert not engine.accepts(grammar, ADD_CALL)
    assert engine.accepts(grammar, "\n".join([ADD_CALL] * 2))
    assert engine.accepts(grammar, "\n".join([ADD_CALL] * 3))
    assert not engine.accepts(grammar, "\n".join([ADD_CALL] * 4))
    assert not engine.accepts(grammar, ADD_CALL + "\n" + WEATHER_CALL)


@pytest.mark.parametrize(
    ("choice", "parallel", "names", "least", "most"),
    [
        ("required", True, None, 1, None),
        ("required", False, None, 1, 1),
        ("search", True, {"search"}, 1, None),
        ("plant", False, {"plant"}, 1, 1),
        ("none", True, set(), 0, 0),
    ],
)
def test_random_walks_emit_only_schema_valid_calls(engine, choice, parallel, names, least, most):
    grammar = _grammar(TOOLS, choice, parallel)
    rng = random.Random(f"{choice}-{parallel}")
    finished = [t for t in (engine.walk(grammar, rng) for _ in range(40)) if t is not None]
    assert len(finished) >= 20
    seen_calls = 0
    for text in finished:
        parsed = parse_tool_calls(text, lenient=False)
        if parsed.tool_calls:
            assert parsed.content is None, text
        else:
            assert "<tool_call>" not in text
        assert least <= len(parsed.tool_calls) <= (most if most is not None else 99), text
        for call in parsed.tool_calls:
            name = call["function"]["name"]
            assert names is None or name in names
            jsonschema.validate(json.loads(call["function"]["arguments"]), SCHEMAS[name])
            seen_calls += 1
    assert (seen_calls > 0) is (most != 0)


@pytest.mark.parametrize(
    ("tools", "choice", "fragment"),
    [
        ([], "required", "no tools were sent"),
        ([ADD], "subtract", "choose one of: add"),
        ([ADD], {"type": "function", "function": {"name": "x"}}, "'x'"),
        ([{"type": "function", "function": {"description": "nameless"}}], "required", "tools[0]"),
        ([_tool("f", {"type": "object"}), {"function": "x"}], "required", "tools[1]"),
        ([{"type": "function", "function": {"name": "f", "parameters": "x"}}], "required", "(f)"),
    ],
)
def test_bad_requests_raise_a_prompt_error(tools, choice, fragment):
    with pytest.raises(PromptError) as caught:
        _grammar(tools, choice)
    assert fragment in str(caught.value)


def test_impossible_call_counts_are_refused():
    with pytest.raises(PromptError):
        calls_grammar([ADD], min_calls=0)
    with pytest.raises(PromptError):
        calls_grammar([ADD], min_calls=3, max_calls=2)


def test_grammar_is_deterministic_text():
    assert calls_grammar(TOOLS) == calls_grammar(TOOLS)
    assert calls_grammar(TOOLS).startswith("root ::= ")


_PLACE = [
    {
        "type": "function",
        "function": {
            "name": "weather",
            "parameters": {
                "type": "object",
                "properties": {"location": {"type": "string"}, "notes": {"type": "array"}},
                "required": ["location"],
            },
        },
    }
]


@pytest.mark.parametrize(
    ("location", "ok"),
    [
        ("Tel Aviv, Israel", True),
        ("Tel Aviv, CA", False),
        ("CA", False),
        ("CCA", False),  # the automaton restarts inside a partial match
        ("Cairo, C\\u0041", True),  # an escape is not the word: the grammar reads characters
        ("Cairo, Ca", True),  # the word as written, case and all
        ("NYC", False),
    ],
)
def test_strings_may_exclude_borrowed_words(engine, location, ok):
    grammar = calls_grammar(_PLACE, max_calls=1, excluded=["CA", "NYC"])
    arguments = f'{{"location": "{location}"}}'
    call = f'<tool_call>\n{{"name": "weather", "arguments": {arguments}}}\n</tool_call>'
    assert engine.accepts(grammar, call) is ok
    nested = call.replace('"}}', '", "notes": ["in CA"]}}')
    assert engine.accepts(grammar, nested) is False  # every string of the arguments
    assert engine.accepts(calls_grammar(_PLACE, max_calls=1), nested) is True


@pytest.mark.parametrize(
    ("shape", "location", "ok"),
    [
        ("x-place-code", "Pleasanton, CA", True),
        ("x-place-code", "Pleasanton", False),
        ("x-place-code", "San Jose, California", False),
        ("x-place-code", "San Jose, C", False),
        ("x-place-name", "Nairobi, Kenya", True),
        ("x-place-name", "Nairobi, KE", False),
        ("x-place-code-or-name", "Nairobi, KE", True),
        ("x-place-code-or-name", "Santa Fe, New Mexico", True),
        ("x-place-code-or-name", "A, B, CA", False),  # one comma: a place, then its region
    ],
)
def test_a_string_may_be_held_to_a_place_and_its_region(engine, shape, location, ok):
    tool = _tool(
        "weather",
        {"type": "object", "properties": {"location": {"type": "string", "format": shape}}},
    )
    grammar = calls_grammar([tool], max_calls=1)
    call = f'{{"name": "weather", "arguments": {{"location": "{location}"}}}}'
    assert engine.accepts(grammar, f"<tool_call>\n{call}\n</tool_call>") is ok


@pytest.mark.parametrize(
    ("city", "ok"),
    [("Guangzhou", True), ("广州", False), ("Guangzhou, China", False), ("raining in", True)],
)
def test_strings_may_be_only_the_conversations_phrases(engine, city, ok):
    phrases = conversation_phrases([{"role": "user", "content": "Is it raining in Guangzhou?"}])
    grammar = calls_grammar(_PLACE, max_calls=1, phrases=phrases)
    call = f'{{"name": "weather", "arguments": {{"location": "{city}"}}}}'
    assert engine.accepts(grammar, f"<tool_call>\n{call}\n</tool_call>") is ok


def test_a_written_call_ending_in_a_number_is_closed_so_no_digit_follows():
    from toolkit.local.format.grammar import written_call

    closed = written_call("divide", {"a": 250, "b": 2})
    assert closed.endswith('{"a": 250, "b": 2}')  # "2" may not become "250"
    assert written_call("get", {"city": "Paris"}).endswith('{"city": "Paris"')
    assert written_call("get", {"on": True}).endswith('{"on": true')
