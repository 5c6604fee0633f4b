"""Tool schemas -> the GBNF grammars the embedded model decodes under. Pure.

A calls grammar admits exactly the format the chat template teaches, one block per call,
blocks separated by one newline, and nothing else (no text before, between or after)::

    <tool_call>
    {"name": "get_weather", "arguments": {"city": "西安"}}
    </tool_call>
    <tool_call>
    {"name": "add", "arguments": {"a": 6, "b": 5}}
    </tool_call>

``"name"`` is one of the allowed tool names and ``"arguments"`` is a JSON object that fits
*that* tool's ``parameters`` schema (:mod:`toolkit.local.format.json_grammar`). The envelope is
fixed text (``{"name": "<name>", "arguments": `` ... ``}``).

The text grammar admits any text that never contains ``<tool_call>``; whether an answer is text
or calls is decided before decoding (:mod:`toolkit.local.decision`), and each is decoded under
its own grammar. :func:`use_token_references` rewrites a grammar's literals so that
``<tool_call>`` is matched as the model's own special token.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from toolkit.errors import PromptError
from toolkit.local.format.json_grammar import GrammarBuilder, gbnf_literal, is_json_number

__all__ = [
    "NAME_OPENING",
    "call_opening",
    "calls_grammar",
    "text_grammar",
    "use_token_references",
    "written_call",
]

_OPEN = "<tool_call>"
#: What every call of a calls grammar starts with, up to the tool's name.
NAME_OPENING = f'{_OPEN}\n{{"name": "'


def _call_head(name: str) -> str:
    """A call's JSON up to its arguments: ``{"name": "add", "arguments": ``."""
    return f'{{"name": {json.dumps(name, ensure_ascii=False)}, "arguments": '


def _functions(tools: Sequence[Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    """OpenAI tools -> ``{name: parameters schema}``, in order."""
    found: dict[str, Mapping[str, Any]] = {}
    for i, tool in enumerate(tools):
        fn = tool.get("function", tool) if isinstance(tool, Mapping) else None
        if not isinstance(fn, Mapping) or not isinstance(fn.get("name"), str) or not fn["name"]:
            raise PromptError(
                f"tools[{i}] must look like "
                '{"type": "function", "function": {"name": ..., "parameters": {...}}}.'
            )
        params = fn.get("parameters")
        if params is None:
            params = {"type": "object", "properties": {}}
        if not isinstance(params, Mapping):
            raise PromptError(
                f"tools[{i}] ({fn['name']}): parameters must be a JSON schema object."
            )
        found[fn["name"]] = params
    return found


def _calls_rule(
    builder: GrammarBuilder,
    tools: Sequence[Mapping[str, Any]],
    names: Iterable[str] | None,
    min_calls: int,
    max_calls: int | None,
) -> str:
    functions = _functions(tools)
    chosen = list(functions) if names is None else list(dict.fromkeys(names))
    unknown = [n for n in chosen if n not in functions]
    if unknown or not chosen:
        raise PromptError(
            f"tool_choice names {', '.join(map(repr, unknown)) or 'no tool'}; "
            f"choose one of: {', '.join(functions) or '(no tools were sent)'}."
        )
    if min_calls < 1 or (max_calls is not None and max_calls < min_calls):
        raise PromptError(f"cannot make between {min_calls} and {max_calls} tool calls.")
    bodies = []
    for name in chosen:
        params = functions[name]
        args = builder.schema({**params, "type": "object"}, params, f"{name}-args")
        head = gbnf_literal(_call_head(name))
        bodies.append(builder.add(f"{name}-call", f'{head} {args} "}}"'))
    call = builder.add("call", f'"{_OPEN}\\n" ( {" | ".join(bodies)} ) "\\n</tool_call>"')
    more_high = "" if max_calls is None else str(max_calls - 1)
    if max_calls == 1:
        return call
    return builder.add("calls", f'{call} ( "\\n" {call} ){{{min_calls - 1},{more_high}}}')


def _ground_numbers(builder: GrammarBuilder, numbers: Sequence[str]) -> None:
    """Let the grammar's numbers, and the digits in its strings, be only the given numbers.

    A kind of number none of them is (an integer, a non-negative one) keeps its usual rule.
    """
    listed = sorted(set(numbers), key=lambda n: (-len(n), n))
    unsigned = [n for n in listed if not n.startswith("-")]
    whole = [n for n in listed if re.fullmatch(r"-?\d+", n)]
    kinds = {
        "number": listed,
        "unumber": unsigned,
        "integer": whole,
        "uint": [n for n in whole if not n.startswith("-")],
        "posint": [n for n in whole if not n.startswith("-") and n.strip("0")],
    }
    for name, chosen in kinds.items():
        if name in builder.rules and chosen:
            builder.rules[name] = " | ".join(gbnf_literal(n) for n in chosen)
    if "char" in builder.rules and unsigned:
        stated = " | ".join(gbnf_literal(n) for n in unsigned)
        builder.rules["char"] = (
            r'[^"\\\x7F\x00-\x1F0-9] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4}) | ' + stated
        )


def _exclude_from_strings(builder: GrammarBuilder, words: Sequence[str]) -> None:
    """Let the grammar's JSON strings contain none of ``words`` (case as given).

    The string's content is read by an :class:`_Avoiding` automaton, as a text answer's is; an
    escape sequence starts the matching afresh. Strings with a length bound keep their own rule.
    """
    patterns = [w for w in words if w and not set(w) & set('"\\')]
    if "string" not in builder.rules or not patterns:
        return
    automaton = _Avoiding(patterns, "string")
    start = automaton.names[""]
    for state in automaton.states:
        alts, excluded = automaton.moves(state)
        banned = "".join(_class_char(c) for c in sorted(excluded))
        builder.rules[automaton.names[state]] = " | ".join(
            [
                '"\\""',
                *alts,
                rf'[^"\\\x7F\x00-\x1F{banned}] {start}',
                rf'"\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{{4}}) {start}',
            ]
        )
    builder.rules["string"] = f'"\\"" {start}'


def _strings_from(builder: GrammarBuilder, phrases: Sequence[str]) -> None:
    """Let the grammar's JSON strings be only the given phrases (strings with a length bound
    keep their own rule)."""
    if "string" not in builder.rules or not phrases:
        return
    escaped = dict.fromkeys(json.dumps(p, ensure_ascii=False) for p in phrases if p)
    builder.rules["string"] = " | ".join(gbnf_literal(p) for p in escaped)


def calls_grammar(
    tools: Sequence[Mapping[str, Any]],
    *,
    names: Iterable[str] | None = None,
    min_calls: int = 1,
    max_calls: int | None = None,
    numbers: Sequence[str] | None = None,
    excluded: Sequence[str] = (),
    phrases: Sequence[str] = (),
) -> str:
    """A grammar admitting only ``<tool_call>`` blocks whose calls fit the tools' schemas.

    Args:
        tools: OpenAI tools (``{"type": "function", "function": {...}}``) or bare functions.
        names: Restrict the calls to these tool names (default: every tool).
        min_calls: Fewest calls (at least 1).
        max_calls: Most calls; ``None`` for no limit.
        numbers: The only numbers the arguments may hold, digits inside text arguments
            included (the numbers a conversation stated); ``None`` admits any.
        excluded: Words no string of the arguments may contain (the words a call borrowed
            from a description's example: :mod:`toolkit.local.decision.examples`).
        phrases: When given, the only strings the arguments may hold (the phrases of the
            conversation: :mod:`toolkit.local.decision.phrases`).

    Returns:
        GBNF text whose start rule is ``root``.

    Raises:
        PromptError: A tool is malformed, a name is not among the tools, or the bounds are
            impossible.
    """
    builder = GrammarBuilder()
    root = _calls_rule(builder, tools, names, min_calls, max_calls)
    if numbers:
        _ground_numbers(builder, numbers)
    if excluded:
        _exclude_from_strings(builder, excluded)
    if phrases:
        _strings_from(builder, phrases)
    return builder.render(root)


def call_opening(names: Sequence[str]) -> str:
    """The text every output of a calls grammar of the tools ``names`` begins with.

    :data:`NAME_OPENING` (where the names' probabilities are read too); with one tool to
    call, its name and the ``"arguments":`` key as well, ending before the space that the
    model's own token for the arguments may start with (`` {"``).

    Args:
        names: The tools the grammar may call.

    Returns:
        The opening text.
    """
    chosen = list(dict.fromkeys(names))
    if len(chosen) == 1:
        return f"{_OPEN}\n{_call_head(chosen[0]).rstrip()}"
    return NAME_OPENING


def written_call(name: str, arguments: Mapping[str, Any], *, whole: bool = False) -> str:
    """A call of ``name`` with ``arguments`` as a calls grammar spells it, up to the brace
    that closes its arguments (left for the model to write, with the call's own end) — with
    that brace when the last value is a number, which the model could otherwise write on
    (``2`` becoming ``250``), or when ``whole``.

    Args:
        name: The tool.
        arguments: The call's arguments, in the order the grammar writes them.
        whole: Write the closing brace: the model adds no argument, only the call's end.

    Returns:
        The text, to be written as a generation's opening.
    """
    body = json.dumps(dict(arguments), ensure_ascii=False)
    if whole or (arguments and is_json_number(list(arguments.values())[-1])):
        return f"{_OPEN}\n{_call_head(name)}{body}"  # the model may not write on its digits
    return f"{_OPEN}\n{_call_head(name)}{body[:-1]}"


#: Characters a text answer may not begin with: a JSON or fenced call cannot pass as text.
_NOT_PLAIN_START = "{[`\x20\t\r\n"


def _class_char(char: str) -> str:
    code = ord(char)
    if code < 0x80:
        return f"\\x{code:02X}"
    return f"\\u{code:04X}" if code < 0x10000 else f"\\U{code:08X}"


def _next_state(state: str, char: str, prefixes: set[str]) -> str:
    """The longest end of ``state + char`` that begins some forbidden string."""
    text = state + char
    for start in range(len(text) + 1):
        if text[start:] in prefixes:
            return text[start:]
    return ""


class _Avoiding:
    """A string-matching automaton (Aho-Corasick) for text that contains none of ``patterns``.

    A state is the longest end of the text so far that begins a pattern; a state that ends with
    a whole pattern has no rule, so the text cannot go there. Each live state becomes a rule
    named ``{prefix}-{i}`` (the empty state first); every rule is right-linear, so llama.cpp's
    parser stack does not grow with the text.
    """

    def __init__(self, patterns: Sequence[str], prefix: str) -> None:
        listed = sorted({p for p in patterns if p})
        self._prefixes = {p[:i] for p in listed for i in range(len(p) + 1)}
        self._alphabet = sorted({ch for p in listed for ch in p})
        self._dead = {q for q in self._prefixes if any(q.endswith(p) for p in listed)}
        self.states = sorted(self._prefixes - self._dead, key=lambda q: (len(q), q))
        self.names = {q: f"{prefix}-{i}" for i, q in enumerate(self.states)}

    def moves(self, state: str, banned: str = "") -> tuple[list[str], set[str]]:
        """From ``state``: the alternatives that read a pattern's character into a later
        state, and the characters the rule's catch-all class must leave out (those, the
        characters that would end a pattern, and ``banned``)."""
        alts, to_root = [], []
        for char in self._alphabet:
            target = _next_state(state, char, self._prefixes)
            if target in self._dead or char in banned:
                continue
            if target == "":
                to_root.append(char)
            else:
                alts.append(f"{gbnf_literal(char)} {self.names[target]}")
        return alts, (set(self._alphabet) - set(to_root)) | set(banned)


def _text_rules(
    builder: GrammarBuilder,
    plain_start: bool,
    forbidden: Sequence[str],
    numbers: Sequence[str] | None = None,
    required: Sequence[str] = (),
    passing: Sequence[str] = (),
) -> str:
    """Rules for text containing none of ``forbidden``; returns the start rule's name.

    The rules are the states of an :class:`_Avoiding` automaton. With ``plain_start`` the
    text may not begin with whitespace, ``{``, ``[`` or a backtick. With ``numbers``, a digit
    can only begin one of those numbers, which then may not run on into another digit. With
    ``required``, a copy of the states comes first, with no digit but the required number's
    (or one of ``passing``, followed by a character that is no digit nor point) and no end:
    its number leads into the states above.
    """
    automaton = _Avoiding(forbidden, "text")
    names = automaton.names
    digits = "0123456789" if numbers is not None else ""
    number = "number" if numbers else None

    def rule(state: str, banned: str = "", *, numbered: bool = True) -> str:
        alts = [""]
        if number is not None and numbered:
            alts.append(number)
        moves, excluded = automaton.moves(state, banned)
        alts += moves
        excluded |= set(digits)
        alts.append(f"[^{''.join(_class_char(c) for c in sorted(excluded))}] {names['']}")
        return " | ".join(alts)

    if required:
        ahead = _Avoiding(forbidden, "before")

        passed = sorted(set(passing) - set(required), key=lambda n: (-len(n), n))

        def before(state: str, banned: str = "") -> str:
            moves, excluded = ahead.moves(state, banned)
            excluded |= set("0123456789")
            rest = f"[^{''.join(_class_char(c) for c in sorted(excluded))}] {ahead.names['']}"
            return " | ".join(["required", *(["passing"] if passed else []), *moves, rest])

        ordered = sorted(set(required), key=lambda n: (-len(n), n))
        builder.rules["required"] = f"( {' | '.join(gbnf_literal(n) for n in ordered)} ) number-end"
        if passed:
            # After a passing number: a character that starts no forbidden string and makes
            # no longer number, then the states before the required number again.
            _, starts = ahead.moves("", "")
            after = "".join(_class_char(c) for c in sorted(starts | set("0123456789.")))
            literals = " | ".join(gbnf_literal(n) for n in passed)
            builder.rules["passing"] = f"( {literals} ) [^{after}] {ahead.names['']}"
        for state in ahead.states:
            builder.rules[ahead.names[state]] = before(state)
        if plain_start:
            builder.rules["before"] = before("", banned=_NOT_PLAIN_START)

    if number is not None:
        ordered = sorted(set(numbers or ()), key=lambda n: (-len(n), n))
        builder.rules[number] = f"( {' | '.join(gbnf_literal(n) for n in ordered)} ) number-end"
        # After a number: no digit (it would make another number), and after a point none either.
        builder.rules["number-end"] = f'"." number-point | {rule("", ".", numbered=False)}'
        builder.rules["number-point"] = rule("", numbered=False)
    for state in automaton.states:
        builder.rules[names[state]] = rule(state)
    if required:
        return "before" if plain_start else ahead.names[""]
    if not plain_start:
        return names[""]
    builder.rules["text"] = rule("", banned=_NOT_PLAIN_START)
    return "text"


def text_grammar(
    *,
    plain_start: bool = True,
    forbidden: Iterable[str] = (),
    numbers: Iterable[str] | None = None,
    required: Sequence[str] = (),
    passing: Sequence[str] = (),
) -> str:
    """A grammar admitting any text that never opens a ``<tool_call>``.

    Args:
        plain_start: Also refuse text that begins with whitespace, ``{``, ``[`` or a backtick,
            the ways a small model starts a JSON or fenced call outside the template format.
        forbidden: More strings the text may never contain (say ``"arguments"``, so that no
            call can be written out as text).
        numbers: The only numbers the text may state, as written (``"11"``, ``"-15"``,
            ``"2.1"``); ``None`` lets it state any.
        required: Spellings of a number the text must state, the first number it states
            (an answer whose result is known states it: ``["126"]``); the text cannot end
            before it.
        passing: Numbers the text may state before the required one (the question's: "Route
            7 has 38 stops").

    Returns:
        GBNF text whose start rule is ``root``.
    """
    builder = GrammarBuilder()
    listed = None if numbers is None else list(numbers)
    if required:
        listed = [*(listed if listed is not None else []), *required]
    start = _text_rules(builder, plain_start, [_OPEN, *forbidden], listed, required, passing)
    return builder.render(start)


def _split_literal(body: str, markers: dict[str, str]) -> str:
    """Split one GBNF string literal (without quotes) around marker texts -> GBNF sequence."""
    parts: list[str] = []
    i = start = 0
    while i < len(body):
        if body[i] == "\\":
            i += 2
            continue
        hit = next((m for m in markers if body.startswith(m, i)), None)
        if hit is None:
            i += 1
            continue
        if i > start:
            parts.append(f'"{body[start:i]}"')
        parts.append(markers[hit])
        i = start = i + len(hit)
    if start < len(body) or not parts:
        parts.append(f'"{body[start:]}"')
    return parts[0] if len(parts) == 1 else "(" + " ".join(parts) + ")"


def use_token_references(grammar: str, markers: dict[str, str]) -> str:
    """Make GBNF string literals match marker texts as single special tokens.

    ``"<tool_call>\\n"`` becomes ``(<tool_call> "\\n")``: the model then emits its one
    ``<tool_call>`` token, as it was trained to, instead of spelling the tag out of ``<`` and
    ``tool``. Character classes and comments are left alone.

    Args:
        grammar: GBNF text.
        markers: Marker text -> GBNF token reference (e.g. ``"<tool_call>"`` ->
            ``"<tool_call>"``) for markers that are single tokens of the model.

    Returns:
        The rewritten GBNF text.
    """
    if not markers:
        return grammar
    out: list[str] = []
    i = 0
    while i < len(grammar):
        char = grammar[i]
        if char == "#":
            end = grammar.find("\n", i)
            end = len(grammar) if end < 0 else end
        elif char in '["':
            close = "]" if char == "[" else '"'
            end = i + 1
            while end < len(grammar) and grammar[end] != close:
                end += 2 if grammar[end] == "\\" else 1
            end += 1
            if char == '"':
                out.append(_split_literal(grammar[i + 1 : end - 1], markers))
                i = end
                continue
        else:
            end = i + 1
        out.append(grammar[i:end])
        i = end
    return "".join(out)
