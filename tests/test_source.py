"""Byte-faithful line edits and atomic multi-file writes."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duizhao.article import split_lines
from duizhao.source import SourceFile, write_atomically

TEXT = st.lists(st.sampled_from(["a", "中", " ", "\r", "\n", "\r\n", "\ufeff", "\t", "\x0c"])).map(
    "".join
)


@given(TEXT, st.booleans())
def test_round_trip_and_line_numbers_match_the_parser(text: str, bom: bool) -> None:
    full = ("\ufeff" if bom else "") + text
    data = full.encode("utf-8")
    source = SourceFile.from_bytes(data)
    assert source.to_bytes() == data and not source.changed
    body = full[1:] if full.startswith("\ufeff") else full  # as article.parse reads it
    lines = split_lines(body)
    if lines and lines[-1] == "":
        lines.pop()  # a final line end does not start another line here
    assert [source.line(n) for n in range(1, len(source.lines) + 1)] == lines


@given(TEXT, st.data())
def test_set_line_touches_only_that_line(text: str, data: st.DataObject) -> None:
    source = SourceFile.from_bytes(text.encode("utf-8"))
    if not source.lines:
        return
    number = data.draw(st.integers(1, len(source.lines)))
    before = list(source.lines)
    source.set_line(number, "X")
    assert source.line(number) == "X"
    assert source.lines[number - 1].endswith(
        before[number - 1][len(before[number - 1].rstrip("\r\n")) :]
    )
    assert source.lines[: number - 1] == before[: number - 1]
    assert source.lines[number:] == before[number:]


def test_insert_uses_the_files_line_end() -> None:
    source = SourceFile.from_bytes(b"a\r\nb\r\nc")
    source.insert(2, ["x"])
    source.append(["z"])
    assert source.to_bytes() == b"a\r\nx\r\nb\r\nc\r\nz\r\n"


def test_write_atomically_keeps_modes_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    old = tmp_path / "old.md"
    old.write_bytes(b"old")
    old.chmod(0o640)
    new = tmp_path / "sub" / "new.md"
    new.parent.mkdir()
    write_atomically({old: b"OLD", new: b"NEW"})
    assert (old.read_bytes(), new.read_bytes()) == (b"OLD", b"NEW")
    assert stat.S_IMODE(old.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["new.md", "old.md", "sub"]


def test_a_failure_before_any_rename_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = tmp_path / "a.md"
    a.write_bytes(b"a")
    missing = tmp_path / "no-such-folder" / "b.md"
    with pytest.raises(FileNotFoundError):
        write_atomically({a: b"A", missing: b"B"})
    assert a.read_bytes() == b"a"
    assert sorted(os.listdir(tmp_path)) == ["a.md"]
