"""Locating, assembling and verifying the embedded model's GGUF file (real files in tmp dirs)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from toolkit.config import Settings
from toolkit.errors import LocalModelError
from toolkit.local.runtime.weights import (
    SHIPPED_MODEL,
    ShippedModel,
    assemble_parts,
    check_gguf,
    file_sha256,
    part_paths,
    resolve_model_path,
)

_PART_DATA = [b"GGUF" + b"\x01" * 1000, b"\x02" * 777, b"\x03" * 5]


def _write_part_packages(root: Path, prefix: str, contents: list[bytes]) -> None:
    """Write importable part modules ``<prefix>1..n`` whose get_part_path() names a data file."""
    for i, data in enumerate(contents, 1):
        package = root / f"{prefix}{i}"
        (package / "data").mkdir(parents=True)
        (package / "data" / f"part{i:02d}.bin").write_bytes(data)
        (package / "__init__.py").write_text(
            "import os\n"
            "def get_part_path():\n"
            "    base = os.path.dirname(os.path.abspath(__file__))\n"
            f"    return os.path.join(base, 'data', 'part{i:02d}.bin')\n"
        )


def _fake_model(prefix: str, contents: list[bytes] = _PART_DATA, **changes) -> ShippedModel:
    whole = b"".join(contents)
    fields = {
        "filename": "fake.gguf",
        "size": len(whole),
        "sha256": hashlib.sha256(whole).hexdigest(),
        "modules": tuple(f"{prefix}{i}" for i in range(1, len(contents) + 1)),
        "distributions": tuple(f"{prefix}{i}==1.0" for i in range(1, len(contents) + 1)),
    }
    fields.update(changes)
    return ShippedModel(**fields)


@pytest.fixture
def parts_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request) -> str:
    """Install three real part modules under a unique prefix; return the prefix."""
    prefix = f"fakeparts_{request.node.name.replace('[', '_').replace(']', '_')}_"
    root = tmp_path / "site"
    _write_part_packages(root, prefix, _PART_DATA)
    monkeypatch.syspath_prepend(str(root))
    return prefix


def _settings(tmp_path: Path, **changes) -> Settings:
    return Settings(cache_dir=tmp_path / "cache", **changes)


def test_assembles_once_verifies_and_reuses(tmp_path: Path, parts_on_path: str) -> None:
    model = _fake_model(parts_on_path)
    path = resolve_model_path(_settings(tmp_path), model=model)
    assert path == tmp_path / "cache" / "fake.gguf"
    assert path.read_bytes() == b"".join(_PART_DATA)
    stamp = json.loads((path.parent / "fake.gguf.verified").read_text())
    assert stamp["sha256"] == model.sha256 and stamp["size"] == model.size
    inode = path.stat().st_ino
    again = resolve_model_path(_settings(tmp_path), model=model)
    assert again == path and again.stat().st_ino == inode  # reused, not rewritten
    assert sorted(p.name for p in path.parent.iterdir()) == ["fake.gguf", "fake.gguf.verified"]


def test_missing_package_names_the_pip_command(tmp_path: Path, parts_on_path: str) -> None:
    model = _fake_model(
        parts_on_path,
        modules=(f"{parts_on_path}1", "no_such_part_module_xyz"),
        distributions=(f"{parts_on_path}1==1.0", f"{parts_on_path}2==1.0"),
    )
    with pytest.raises(LocalModelError) as info:
        resolve_model_path(_settings(tmp_path), model=model)
    message = str(info.value)
    assert f"pip install --force-reinstall {parts_on_path}1==1.0" in message
    assert f"missing: {parts_on_path}2==1.0" in message
    assert "TOOLKIT_MODEL_PATH" in message
    assert not (tmp_path / "cache" / "fake.gguf").exists()


def test_part_module_whose_file_is_gone(tmp_path: Path, parts_on_path: str) -> None:
    model = _fake_model(parts_on_path)
    (tmp_path / "site" / f"{parts_on_path}2" / "data" / "part02.bin").unlink()
    with pytest.raises(LocalModelError, match=rf"missing: {parts_on_path}2==1.0"):
        part_paths(model)


def test_wrong_checksum_leaves_no_file(tmp_path: Path, parts_on_path: str) -> None:
    model = _fake_model(parts_on_path, sha256="0" * 64)
    with pytest.raises(LocalModelError) as info:
        resolve_model_path(_settings(tmp_path), model=model)
    assert "pip install --force-reinstall" in str(info.value)
    assert "sha256" in str(info.value)
    assert list((tmp_path / "cache").iterdir()) == []  # neither the file nor a temp file


def test_a_truncated_part_is_refused(tmp_path: Path, parts_on_path: str) -> None:
    model = _fake_model(parts_on_path)
    part = tmp_path / "site" / f"{parts_on_path}3" / "data" / "part03.bin"
    part.write_bytes(b"\x03" * 2)
    with pytest.raises(LocalModelError, match="do not assemble into the expected file"):
        resolve_model_path(_settings(tmp_path), model=model)
    assert not (tmp_path / "cache" / "fake.gguf").exists()


@pytest.mark.parametrize("damage", ["truncate", "flip_without_stamp", "stale_stamp"])
def test_a_damaged_cache_file_is_rebuilt(tmp_path: Path, parts_on_path: str, damage: str) -> None:
    model = _fake_model(parts_on_path)
    path = resolve_model_path(_settings(tmp_path), model=model)
    stamp = path.parent / "fake.gguf.verified"
    whole = b"".join(_PART_DATA)
    if damage == "truncate":
        path.write_bytes(whole[:100])
    elif damage == "flip_without_stamp":
        path.write_bytes(whole[:-1] + b"X")
        stamp.unlink()
    else:  # same size, new content: the stamp's modification time no longer matches
        path.write_bytes(whole[:-1] + b"X")
        os.utime(path, ns=(1, 1))
    rebuilt = resolve_model_path(_settings(tmp_path), model=model)
    assert rebuilt.read_bytes() == whole
    assert json.loads(stamp.read_text())["mtime_ns"] == rebuilt.stat().st_mtime_ns


def test_missing_stamp_on_a_good_file_is_rehashed_not_rebuilt(
    tmp_path: Path, parts_on_path: str
) -> None:
    model = _fake_model(parts_on_path)
    path = resolve_model_path(_settings(tmp_path), model=model)
    (path.parent / "fake.gguf.verified").unlink()
    inode = path.stat().st_ino
    assert resolve_model_path(_settings(tmp_path), model=model).stat().st_ino == inode
    assert (path.parent / "fake.gguf.verified").is_file()


def test_unwritable_cache_dir_names_the_variable(tmp_path: Path, parts_on_path: str) -> None:
    blocker = tmp_path / "not_a_dir"
    blocker.write_text("a file where the cache directory should be")
    settings = Settings(cache_dir=blocker / "cache")
    with pytest.raises(LocalModelError, match="TOOLKIT_CACHE_DIR"):
        resolve_model_path(settings, model=_fake_model(parts_on_path))


def test_assemble_parts_reports_an_unreadable_part(tmp_path: Path) -> None:
    model = _fake_model("unused_", contents=[b"GGUF"])
    with pytest.raises(LocalModelError, match="cannot read the model part"):
        assemble_parts([tmp_path / "absent.bin"], tmp_path / "out" / "x.gguf", model)
    assert list((tmp_path / "out").iterdir()) == []


def test_model_path_setting_wins(tmp_path: Path) -> None:
    gguf = tmp_path / "other.gguf"
    gguf.write_bytes(b"GGUF\x03\x00\x00\x00rest")
    assert resolve_model_path(_settings(tmp_path, local_model_path=gguf)) == gguf.resolve()
    assert not (tmp_path / "cache").exists()  # nothing assembled


def test_model_path_missing_or_not_gguf(tmp_path: Path) -> None:
    with pytest.raises(LocalModelError, match=r"TOOLKIT_MODEL_PATH .* does not exist"):
        resolve_model_path(_settings(tmp_path, local_model_path=tmp_path / "nope.gguf"))
    text = tmp_path / "model.gguf"
    text.write_text("not a model")
    with pytest.raises(LocalModelError, match="is not a GGUF file"):
        check_gguf(text, origin="TOOLKIT_MODEL_PATH")
    with pytest.raises(LocalModelError, match="does not exist or is not a file"):
        check_gguf(tmp_path)


def test_the_shipped_parts_are_installed_and_add_up() -> None:
    paths = part_paths(SHIPPED_MODEL)
    assert len(paths) == 6
    assert sum(p.stat().st_size for p in paths) == SHIPPED_MODEL.size
    assert paths[0].read_bytes()[:4] == b"GGUF"


def test_file_sha256_matches_hashlib(tmp_path: Path) -> None:
    data = os.urandom(9 * 1024 * 1024 + 3)  # spans several read chunks
    path = tmp_path / "blob"
    path.write_bytes(data)
    assert file_sha256(path) == hashlib.sha256(data).hexdigest()
