"""Names in Chinese or English for the offline sample-data tools (market, geo).

:class:`NameTable` finds the Chinese key of a name written either way, case, width and
punctuation aside, and raises the :class:`~langchain_core.tools.ToolException` that lists the
known names when it finds none.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from langchain_core.tools import ToolException

__all__ = ["NameTable", "spellings"]


def spellings(name: str) -> list[str]:
    """A name as written, then each of its two halves when it is written as the tools list
    their names, "北京 (Beijing)": a caller may pass a name on as a tool wrote it.

    Args:
        name: A name as a caller wrote it.

    Returns:
        The spellings to look up, in order.
    """
    match = re.fullmatch(r"\s*([^()]+?)\s*[(（]([^()（）]+)[)）]\s*", name)
    return [name, match[1], match[2]] if match else [name]


class NameTable:
    """Chinese names, their English names and extra spellings, looked up by a folded key.

    Args:
        english: Chinese name -> English name.
        extra: More spellings -> Chinese name (plurals, abbreviations); those naming an
            unknown Chinese name are left out.
        suffixes: Endings a name may carry that do not change it ("市", " city").
    """

    def __init__(
        self,
        english: Mapping[str, str],
        extra: Mapping[str, str] | None = None,
        suffixes: tuple[str, ...] = (),
    ) -> None:
        self._suffixes = suffixes
        self.known = ", ".join(f"{zh} ({en})" for zh, en in english.items())
        self._keys = {self._key(k): zh for k, zh in (extra or {}).items() if zh in english}
        for zh, en in english.items():
            self._keys[self._key(zh)] = self._keys[self._key(en)] = zh

    def _key(self, text: str) -> str:
        folded = unicodedata.normalize("NFKC", text).strip().lower()
        for suffix in self._suffixes:
            folded = folded.removesuffix(suffix)
        return "".join(ch for ch in folded if ch.isalnum())

    def find(self, name: str, what: str) -> str:
        """The Chinese name ``name`` stands for.

        Args:
            name: A name as a caller wrote it.
            what: What the name names ("item", "city"), for the error.

        Returns:
            The Chinese name.

        Raises:
            ToolException: The name is unknown; the message lists the known ones.
        """
        zh = next((self._keys[k] for k in map(self._key, spellings(name)) if k in self._keys), None)
        if zh is None:
            raise ToolException(f"Unknown {what} {name!r}. Ask for one of: {self.known}.")
        return zh
