"""Database: read-only SQL over a real SQLite file of sample shop data.

The shipped file ``tools/data/shop.db`` is built from the readable script ``tools/data/shop.sql``
by :func:`build_database` (a test checks they agree). :func:`make_database_tools` returns the same
tools over another SQLite file.

Each query gets its own connection, locked down in layers, so one failing layer is not enough:

1. the file is opened read-only (URI ``mode=ro``) and ``PRAGMA query_only`` is switched on;
2. an authorizer allows reading and calling ordinary functions only: INSERT, UPDATE, DELETE,
   CREATE, DROP, ALTER, ATTACH (and so ``VACUUM INTO``), PRAGMA, transactions and functions such as
   ``load_extension`` or ``zeroblob`` are refused before the statement runs;
3. only one statement is accepted (a trailing comment is fine, a second statement is not);
4. a progress handler stops any query after :data:`TIME_LIMIT` seconds (e.g. a runaway recursive
   CTE), values are capped in size, and at most :data:`MAX_ROWS` rows come back.

Refusals raise :class:`~langchain_core.tools.ToolException` saying what was refused and what
would work instead.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import tempfile
import time
from pathlib import Path

from langchain_core.tools import BaseTool, ToolException, tool

__all__ = [
    "DEFAULT_DATABASE",
    "DEFAULT_SCRIPT",
    "MAX_ROWS",
    "TIME_LIMIT",
    "build_database",
    "describe_database",
    "make_database_tools",
    "query_database",
    "table_summary",
]

_DATA = Path(__file__).resolve().parent / "data"
#: The sample database the module-level tools read.
DEFAULT_DATABASE = _DATA / "shop.db"
#: The SQL script ``shop.db`` is built from.
DEFAULT_SCRIPT = _DATA / "shop.sql"
#: Most rows a query returns.
MAX_ROWS = 50
#: Seconds a query may run.
TIME_LIMIT = 1.0
#: Longest SQL text accepted, in characters.
MAX_SQL_LENGTH = 4000
_MAX_CELL = 200
_MAX_VALUE_BYTES = 1_000_000

_ALLOWED_ACTIONS = {
    sqlite3.SQLITE_SELECT,
    sqlite3.SQLITE_READ,
    sqlite3.SQLITE_FUNCTION,
    sqlite3.SQLITE_RECURSIVE,
}
_DENIED_FUNCTIONS = {
    "load_extension",
    "zeroblob",
    "randomblob",
    "readfile",
    "writefile",
    "edit",
    "fts3_tokenizer",
}
_ACTION_NAMES = {
    getattr(sqlite3, name): name.removeprefix("SQLITE_").replace("_", " ")
    for name in (
        "SQLITE_INSERT SQLITE_UPDATE SQLITE_DELETE SQLITE_ATTACH SQLITE_DETACH SQLITE_PRAGMA "
        "SQLITE_TRANSACTION SQLITE_SAVEPOINT SQLITE_CREATE_TABLE SQLITE_CREATE_INDEX "
        "SQLITE_CREATE_VIEW SQLITE_CREATE_TRIGGER SQLITE_CREATE_TEMP_TABLE SQLITE_DROP_TABLE "
        "SQLITE_DROP_INDEX SQLITE_DROP_VIEW SQLITE_DROP_TRIGGER SQLITE_ALTER_TABLE "
        "SQLITE_REINDEX SQLITE_ANALYZE SQLITE_CREATE_VTABLE SQLITE_DROP_VTABLE"
    ).split()
    if hasattr(sqlite3, name)
}


def build_database(script: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
    """Create (or replace) a SQLite file by running a SQL script.

    Args:
        script: The SQL script with the CREATE TABLE and INSERT statements.
        target: The database file to write; it is replaced atomically.
    """
    target = Path(target)
    handle, temporary = tempfile.mkstemp(suffix=".db", dir=target.parent)
    os.close(handle)
    try:
        connection = sqlite3.connect(temporary)
        try:
            connection.executescript(Path(script).read_text(encoding="utf-8"))
            connection.commit()
        finally:
            connection.close()
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def _open(path: Path) -> tuple[sqlite3.Connection, list[str]]:
    """Open ``path`` read-only with every guard; return it and the list of refused actions."""
    refused: list[str] = []

    def authorize(action: int, arg1: str | None, arg2: str | None, *_: object) -> int:
        if action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower() in _DENIED_FUNCTIONS:
            refused.append(f"the function {arg2}()")
            return sqlite3.SQLITE_DENY
        if action in _ALLOWED_ACTIONS:
            return sqlite3.SQLITE_OK
        refused.append(_ACTION_NAMES.get(action, f"action {action}"))
        return sqlite3.SQLITE_DENY

    try:
        connection = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=1.0)
        connection.execute("PRAGMA query_only = ON")
    except sqlite3.Error as exc:
        raise ToolException(f"The database {path.name!r} cannot be opened: {exc}.") from None
    if hasattr(connection, "setlimit"):
        connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, _MAX_VALUE_BYTES)
        connection.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
    connection.set_authorizer(authorize)
    return connection, refused


def _cell(value: object) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bytes):
        return f"<{len(value)} bytes>"
    text = str(value).replace("\n", " ")
    return text if len(text) <= _MAX_CELL else text[:_MAX_CELL] + "…"


def _explain(sql: str, exc: sqlite3.Error, refused: list[str], timed_out: bool) -> ToolException:
    message = str(exc)
    if timed_out:
        return ToolException(
            f"The query ran longer than {TIME_LIMIT:g} s and was stopped; add a WHERE clause or "
            "a LIMIT, or make a recursive query stop."
        )
    if refused and refused[0].startswith("the function"):
        return ToolException(
            f"Refused: {refused[0]} is not available here. Use ordinary SQL functions only."
        )
    if refused:
        keyword = (sql.split() or ["this"])[0].upper()
        return ToolException(
            f"Refused: this {keyword} statement needs {refused[0]} permission, and the database "
            "is read-only. Send one SELECT (or WITH ... SELECT) statement."
        )
    if "one statement at a time" in message:
        return ToolException(
            "Only one SQL statement per call is allowed; send the statements one at a time."
        )
    return ToolException(f"SQL error: {message}. Call describe_database to see the tables.")


def _query(path: Path, sql: str) -> str:
    text = sql.strip()
    if not text:
        raise ToolException("The SQL is empty; send one SELECT statement.")
    if len(text) > MAX_SQL_LENGTH:
        raise ToolException(
            f"The SQL is {len(text)} characters long; the limit is {MAX_SQL_LENGTH}."
        )
    if "\x00" in text:
        raise ToolException("The SQL contains a NUL character; remove it.")
    connection, refused = _open(path)
    deadline = time.monotonic() + TIME_LIMIT
    connection.set_progress_handler(lambda: time.monotonic() > deadline, 10_000)
    try:
        cursor = connection.execute(text)
        rows = cursor.fetchmany(MAX_ROWS + 1)
        columns = [column[0] for column in cursor.description or ()]
    except (sqlite3.Error, sqlite3.Warning) as exc:
        raise _explain(text, exc, refused, time.monotonic() > deadline) from None
    finally:
        connection.close()
    if not columns:
        return "The statement returned no result."
    lines = [" | ".join(columns)]
    lines += [" | ".join(_cell(value) for value in row) for row in rows[:MAX_ROWS]]
    if len(rows) > MAX_ROWS:
        lines.append(f"(first {MAX_ROWS} rows shown; more exist: add a WHERE clause or LIMIT)")
    else:
        lines.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(lines)


def table_summary(path: str | os.PathLike[str]) -> str:
    """Summarise the tables of a SQLite file as ``name(column, ...)`` items.

    Args:
        path: The database file.

    Returns:
        The tables and their columns, e.g. ``"customers(id, name), orders(id, customer_id)"``.
    """
    connection, _ = _open(Path(path).resolve())
    try:
        tables = connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY rowid"
        ).fetchall()
        parts = []
        for (name,) in tables:
            cursor = connection.execute(f'SELECT * FROM "{name}" LIMIT 0')
            parts.append(f"{name}({', '.join(column[0] for column in cursor.description)})")
    finally:
        connection.close()
    return ", ".join(parts)


def _describe(path: Path) -> str:
    connection, _ = _open(path)
    try:
        tables = connection.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
        ).fetchall()
        blocks = []
        for name, ddl in tables:
            (count,) = connection.execute(f'SELECT count(*) FROM "{name}"').fetchone()
            blocks.append(f"{ddl};\n-- {count} rows")
    finally:
        connection.close()
    return "\n\n".join(blocks)


@tool(parse_docstring=True)
def query_database(sql: str) -> str:
    """Run one read-only SQL SELECT on the sample shop database (SQLite) and return the rows.

    Tables: customers(id, name, city, joined), products(id, name, category, price).

    Table orders(id, customer_id, product_id, quantity, ordered_on) links the two.

    Prices are in yuan, cities are Chinese names such as 北京, dates are YYYY-MM-DD text.

    Args:
        sql: One SQLite SELECT statement, e.g. "SELECT city, count(*) FROM customers GROUP BY
            city". Writes, PRAGMA, ATTACH and multiple statements are refused.

    Returns:
        A header line of column names, one line per row with values separated by " | ", and
        the row count; at most 50 rows.
    """
    return _query(DEFAULT_DATABASE, sql)


@tool(parse_docstring=True)
def describe_database() -> str:
    """Show the tables of the sample shop database: each CREATE TABLE statement and its row count.

    Returns:
        The schema of every table, with the number of rows in each.
    """
    return _describe(DEFAULT_DATABASE)


def make_database_tools(path: str | os.PathLike[str]) -> list[BaseTool]:
    """Return ``query_database`` and ``describe_database`` over another SQLite file.

    The description of ``query_database`` lists that file's tables instead of the shop's.

    Args:
        path: An existing SQLite database file; it is only ever opened read-only.

    Returns:
        The two tools, with the same names and parameters as the module-level ones.

    Raises:
        FileNotFoundError: ``path`` is not an existing file.
    """
    resolved = Path(path).resolve()
    if not resolved.is_file():
        raise FileNotFoundError(f"database {str(path)!r} is not an existing file")
    description = (
        "Run one read-only SQL SELECT on a SQLite database and return the rows. "
        f"Tables: {table_summary(resolved)}."
    )
    return [
        query_database.model_copy(
            update={"func": functools.partial(_query, resolved), "description": description}
        ),
        describe_database.model_copy(update={"func": functools.partial(_describe, resolved)}),
    ]
