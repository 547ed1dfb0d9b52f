"""What a folder of small sheets costs per file, beyond its parse (bench/run.py's many-files
row): a small file is read for the size it has, and a source's reader is looked up once."""

from __future__ import annotations

import io

import pytest
from helpers import run

from wizard_cli.errors import WizardError
from wizard_cli.sheets import formats
from wizard_cli.sheets.source import MAX_YAML_BYTES, read_limited


class Recorded(io.BufferedReader):
    """A file's reader that remembers the sizes it was asked for."""

    asked: list[int]

    def read(self, size: int | None = -1) -> bytes:
        self.asked.append(-1 if size is None else size)
        return super().read(size)


def reader(path) -> Recorded:
    handle = Recorded(io.FileIO(path))
    handle.asked = []
    return handle


def test_a_small_file_is_read_for_its_size(tmp_path):
    """Not MAX_YAML_BYTES + 1 (a 64 MB buffer made and dropped for every small sheet)."""
    sheet = tmp_path / "g.yaml"
    sheet.write_bytes(b"title: x\n" * 100)
    with reader(sheet) as handle:
        handle.peek(10)  # as read_sheets sniffs the head first
        assert read_limited(handle, "g.yaml") == b"title: x\n" * 100
    assert max(handle.asked) <= 901


@pytest.mark.parametrize("size", [0, 1, 5000])
def test_what_is_read_is_the_whole_file_however_it_is_read(tmp_path, size):
    sheet = tmp_path / "g.yaml"
    sheet.write_bytes(b"x" * size)
    with reader(sheet) as handle:
        handle.read(min(size, 3))
        assert read_limited(handle, "g.yaml") == b"x" * max(size - 3, 0)
    with io.BufferedReader(io.BytesIO(b"y" * size)) as handle:  # no file: up to the bound
        assert read_limited(handle, "-") == b"y" * size


def test_a_file_grown_since_its_size_was_taken_is_read_whole(tmp_path, monkeypatch):
    sheet = tmp_path / "g.yaml"
    sheet.write_bytes(b"z" * 3000)
    real_fstat = formats.os.fstat

    class Shrunk:
        def __init__(self, info):
            self.st_size = 1000  # what the file had when its size was taken

    monkeypatch.setattr("wizard_cli.sheets.source.os.fstat", lambda fd: Shrunk(real_fstat(fd)))
    with reader(sheet) as handle:
        assert read_limited(handle, "g.yaml") == b"z" * 3000


def test_too_large_is_still_refused(tmp_path, monkeypatch):
    monkeypatch.setattr("wizard_cli.sheets.source.MAX_YAML_BYTES", 100)
    sheet = tmp_path / "g.yaml"
    sheet.write_bytes(b"a" * 101)
    with reader(sheet) as handle, pytest.raises(WizardError, match="larger than"):
        read_limited(handle, "g.yaml")
    assert MAX_YAML_BYTES > 100


def test_a_source_reader_is_imported_once(tmp_path, monkeypatch):
    """The sniffers and the reader of every file of a folder are looked up once, not asked of
    importlib again for each file."""
    asked: list[str] = []
    real = formats.import_module
    monkeypatch.setattr(formats, "_FUNCTIONS", {})
    monkeypatch.setattr(formats, "import_module", lambda name: asked.append(name) or real(name))
    for number in range(5):
        (tmp_path / f"{number}.yaml").write_text(
            "players: [A, B, C]\nrounds:\n  - bids: [1, 0, 0]\n    tricks: [1, 0, 0]\n"
        )
    result = run("standings", *sorted(tmp_path.glob("*.yaml")))
    assert result.exit_code == 0, result.stderr
    assert len(asked) == 3  # two sniffers and the reader, each once (once a file: 15)
