"""Attacks on the example tools: each is refused with a clear message and changes nothing.

How quickly they are refused is measured by ``bench/tool_attacks.py``; these tests assert only
the outcome.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3

import pytest
from langchain_core.tools import ToolException

import tools
from tools.database import DEFAULT_DATABASE

# --- calculator: never runs code, never does unbounded work ------------------------------------

CALCULATOR_ATTACKS = {
    "tower of powers": ("9**9**9", "9 \\*\\* 387420489 would exceed 4096 bits"),
    "huge exponent": ("2**10**10", "2 \\*\\* 10000000000 would exceed 4096 bits"),
    "four-storey tower": ("9**9**9**9", "would exceed 4096 bits"),
    "huge product": ("(10**1000) * (10**1000)", "a product would exceed 4096 bits"),
    "deep nesting": ("(1+" * 90 + "1" + ")" * 90, "nested deeper than 40 levels"),
    "parser-deep parentheses": ("(" * 240 + "1" + ")" * 240, "is not a valid expression"),
    "deep unary": ("-" * 300 + "1", "has 602 parts; the limit is 400"),
    "100 kB input": ("1+" * 50_000 + "1", "is 100001 characters long; the limit is 500"),
    "import": ("__import__('os').system('true')", "unknown function \"__import__\\('os'\\)"),
    "bare import call": ("__import__('os')", "unknown function '__import__'"),
    "attribute": ("(1).__class__", "Attribute syntax is not allowed"),
    "dunder walk": ("().__class__.__bases__[0].__subclasses__()", "unknown function '\\(\\)"),
    "builtin name": ("open", "unknown name 'open'"),
    "eval call": ("eval('1')", "unknown function 'eval'"),
    "lambda": ("(lambda: 1)()", "unknown function|Lambda syntax"),
    "list repetition": ("[1] * 10**9", "List syntax is not allowed"),
    "string repetition": ("'a' * 10**9", "'a' is not a number"),
    "comprehension": ("sum(x for x in range(10**9))", "unknown function 'sum'"),
    "walrus": ("(y := 10**9)", "NamedExpr syntax is not allowed"),
    "keyword arguments": ("round(2.5, ndigits=10**9)", "positional arguments only"),
    "complex": ("1j ** 2", "1j is not a number"),
}


@pytest.mark.parametrize(
    ("expression", "message"), CALCULATOR_ATTACKS.values(), ids=list(CALCULATOR_ATTACKS)
)
def test_calculator_refuses(expression: str, message: str) -> None:
    with pytest.raises(ToolException, match=f"^Cannot calculate: .*({message})"):
        tools.calculate.invoke({"expression": expression})


def test_calculator_runs_no_code(tmp_path) -> None:
    marker = tmp_path / "pwned"
    for expression in (
        f"__import__('pathlib').Path({str(marker)!r}).touch()",
        f"open({str(marker)!r}, 'w')",
        f"[c for c in ().__class__.__base__.__subclasses__()] or open({str(marker)!r}, 'w')",
    ):
        with pytest.raises(ToolException, match=r"^Cannot calculate: "):
            tools.calculate.invoke({"expression": expression})
    assert not marker.exists()


# --- files: cannot leave the sandbox -----------------------------------------------------------


@pytest.fixture()
def sandbox(tmp_path):
    """A sandbox with a secret file next to it and symlinks that try to reach it."""
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "inside.txt").write_text("inside", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("TOP SECRET", encoding="utf-8")
    os.symlink(tmp_path / "secret.txt", root / "link-out.txt")
    os.symlink(tmp_path, root / "sub" / "up")
    os.symlink("../inside.txt", root / "sub" / "link-in.txt")
    return root


PATH_ATTACKS = {
    "parent": ("../secret.txt", "uses '..'"),
    "parent in the middle": ("sub/../../secret.txt", "uses '..'"),
    "absolute": ("/etc/passwd", "is absolute"),
    "home": ("~/.ssh/id_rsa", "is absolute"),
    "windows drive": ("C:/Windows/win.ini", "is absolute"),
    "backslashes": ("sub\\..\\..\\secret.txt", "contains a backslash"),
    "percent-encoded slash": ("..%2fsecret.txt", "percent-encoded byte"),
    "percent-encoded dots": ("%2e%2e/secret.txt", "percent-encoded byte"),
    "double encoding": ("%252e%252e/secret.txt", "percent-encoded byte"),
    "full-width dots": ("．．/secret.txt", "unusual characters"),
    "full-width slash": ("..／secret.txt", "unusual characters"),
    "NUL byte": ("inside.txt\x00.png", "NUL or control character"),
    "newline": ("inside\n.txt", "NUL or control character"),
    "symlink to a file outside": ("link-out.txt", "leads outside the sandbox"),
    "symlink to a folder outside": ("sub/up/secret.txt", "leads outside the sandbox"),
    "very long": ("a/" * 200 + "x", "the limit is 300"),
}


@pytest.mark.parametrize(("path", "message"), PATH_ATTACKS.values(), ids=list(PATH_ATTACKS))
def test_read_file_refuses(sandbox, path: str, message: str) -> None:
    _, read = tools.make_file_tools(sandbox)
    with pytest.raises(ToolException, match=message):
        read.invoke({"path": path})


def test_symlink_inside_the_sandbox_still_works(sandbox) -> None:
    _, read = tools.make_file_tools(sandbox)
    assert read.invoke({"path": "sub/link-in.txt"}) == "inside"


@pytest.mark.parametrize("pattern", ["../*", "/etc/*", "..%2f*", "*\x00", "sub/../../*"])
def test_search_files_refuses_escaping_patterns(sandbox, pattern: str) -> None:
    search, _ = tools.make_file_tools(sandbox)
    with pytest.raises(ToolException, match="The pattern"):
        search.invoke({"pattern": pattern})


def test_search_files_never_lists_what_symlinks_reach_outside(sandbox) -> None:
    search, _ = tools.make_file_tools(sandbox)
    listing = search.invoke({"pattern": "*"})
    assert "secret" not in listing
    assert "link-out.txt" not in listing
    assert listing.splitlines()[1:] == ["inside.txt (6 bytes)", "sub/link-in.txt (6 bytes)"]


# --- database: cannot write, attach or run more than one statement -----------------------------

DATABASE_ATTACKS = {
    "insert": ("INSERT INTO products VALUES (99, 'x', 'y', 1)", "INSERT statement needs INSERT"),
    "update": ("UPDATE products SET price = 0", "UPDATE statement needs UPDATE"),
    "delete": ("DELETE FROM orders", "DELETE statement needs DELETE"),
    "drop": ("DROP TABLE orders", "DROP statement needs"),
    "create": ("CREATE TABLE evil (a)", "CREATE statement needs"),
    "temp table": ("CREATE TEMP TABLE evil (a)", "CREATE statement needs"),
    "alter": ("ALTER TABLE orders ADD COLUMN evil TEXT", "ALTER statement needs"),
    "attach": ("ATTACH DATABASE 'evil.db' AS evil", "ATTACH statement needs ATTACH"),
    "vacuum into": ("VACUUM INTO 'copy.db'", "VACUUM statement needs ATTACH"),
    "writable schema": ("PRAGMA writable_schema = 1", "PRAGMA statement needs PRAGMA"),
    "query_only off": ("PRAGMA query_only = 0", "PRAGMA statement needs PRAGMA"),
    "pragma function": ("SELECT * FROM pragma_table_info('orders')", "Refused: this SELECT"),
    "transaction": ("BEGIN IMMEDIATE", "BEGIN statement needs TRANSACTION"),
    "two statements": ("SELECT 1; SELECT 2", "Only one SQL statement per call"),
    "stacked drop": ("SELECT 1; DROP TABLE orders", "Only one SQL statement per call"),
    "injection with comment": (
        "SELECT name FROM products WHERE name = ''; DROP TABLE products;--",
        "Only one SQL statement per call",
    ),
    "write in a CTE": (
        "WITH x AS (SELECT 1) DELETE FROM orders",
        "WITH statement needs DELETE",
    ),
    "load extension": ("SELECT load_extension('/tmp/evil.so')", "load_extension\\(\\) is not"),
    "huge blob": ("SELECT zeroblob(2000000000)", "zeroblob\\(\\) is not available"),
    "huge string": (
        "SELECT replace(printf('%.*c', 900000, 'x'), 'x', 'xxxxxxxx')",
        "string or blob too big",
    ),
    "runaway recursion": (
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r",
        "ran longer than 1 s and was stopped",
    ),
    "NUL byte": ("SELECT 1\x00; DROP TABLE orders", "contains a NUL character"),
    "huge input": ("SELECT " + "1+" * 5000 + "1", "the limit is 4000"),
}


def _fingerprint() -> str:
    return hashlib.sha256(DEFAULT_DATABASE.read_bytes()).hexdigest()


@pytest.mark.parametrize(("sql", "message"), DATABASE_ATTACKS.values(), ids=list(DATABASE_ATTACKS))
def test_query_database_refuses(sql: str, message: str, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    before = _fingerprint()
    with pytest.raises(ToolException, match=message):
        tools.query_database.invoke({"sql": sql})
    assert _fingerprint() == before
    assert list(tmp_path.iterdir()) == []


def test_trailing_comment_is_one_statement() -> None:
    assert tools.query_database.invoke({"sql": "SELECT 1 AS one; -- done"}) == "one\n1\n(1 row)"


def test_writes_are_refused_even_without_the_authorizer() -> None:
    connection, _ = tools.database._open(DEFAULT_DATABASE)
    connection.set_authorizer(None)
    try:
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            connection.execute("DELETE FROM orders")
        connection.execute("PRAGMA query_only = OFF")
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            connection.execute("DELETE FROM orders")
    finally:
        connection.close()
