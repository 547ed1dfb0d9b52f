"""The sheet formats, registered in one place: how each is detected, read and written.

:class:`~wizard_cli.game.model.SheetFormat` names them; :data:`FORMATS` says, for each, the file
suffixes it is known by and the functions that read and write it (imported only when used: a
CSV season never loads PyYAML). :func:`read_sheets` hands a source to its reader; the bytes
are opened and decoded below the readers, in :mod:`.source`.
"""

from __future__ import annotations

import io
import os
import re
import stat
from dataclasses import dataclass
from importlib import import_module
from typing import IO, Callable, Iterator, Sequence

from ..errors import Problem
from ..game.model import Sheet, SheetFormat
from .source import (decode_all, decoded_blocks, display_name, file_encoding, general_path,
                     open_binary, read_limited, text_encoding)


@dataclass(frozen=True)
class Registered:
    """One format: the suffixes that name it, and where its reader and writer live."""

    suffixes: tuple[str, ...]  # what a file is read as (and written as, for --output)
    reader: str | None  # "module:function" of its reader; None: read as another format
    writer: str  # "module:function" of the writer of a whole season in it


FORMATS: dict[SheetFormat, Registered] = {
    SheetFormat.YAML: Registered((".yaml", ".yml"), "yaml_sheets:read_yaml_sheets",
                                 "writing:season_yaml"),
    SheetFormat.JSON: Registered((".json",), None, "writing:season_json"),  # read as YAML
    SheetFormat.CSV: Registered((".csv", ".tsv", ".txt"), "csv_sheets:read_csv_sheets",
                                "writing:long_csv"),
    SheetFormat.WIDE_CSV: Registered((), None, "writing:wide_csv"),  # a CSV, told by its header
}
INPUT_FORMATS = (SheetFormat.YAML, SheetFormat.CSV)  # what --input-format can name
WORKBOOK_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".ods")  # each worksheet read as a CSV
SNIFF_BYTES = 8192


def function(where: str) -> Callable:
    """A registered reader or writer, imported when first asked for."""
    module, name = where.split(":")
    return getattr(import_module(f"{__package__}.{module}"), name)


def written_as(path: str) -> SheetFormat | None:
    """The format an output file's suffix names (``-o season.yaml``), if any (a ``.txt`` or
    ``.tsv`` is read as CSV but names no format to write)."""
    suffix = os.path.splitext(path)[1].lower()
    for name in (SheetFormat.YAML, SheetFormat.JSON):
        if suffix in FORMATS[name].suffixes:
            return name
    return SheetFormat.CSV if suffix == ".csv" else None


def serialize(sheets: Sequence, target: SheetFormat | str) -> str:
    """The text of validated sheets (``writing.Portable``) in the target format, whole."""
    return function(FORMATS[SheetFormat(target)].writer)(sheets)


def sniff_format(path: str, head: bytes, codec: str = "utf-8") -> SheetFormat:
    """YAML or CSV, from the file's extension or else from how its first line looks."""
    lower = path.lower()
    if lower.endswith(FORMATS[SheetFormat.YAML].suffixes + FORMATS[SheetFormat.JSON].suffixes):
        return SheetFormat.YAML
    if lower.endswith(FORMATS[SheetFormat.CSV].suffixes):
        return SheetFormat.CSV
    first = next((ln.strip() for ln in head.decode(codec, "replace").lstrip("\ufeff").splitlines()
                  if ln.strip()), "")
    if first.startswith(("{", "[", "---", "#", "%")) or re.match(r"^[\w\"' -]+:(\s|$)", first):
        return SheetFormat.YAML
    return SheetFormat.CSV if any(d in first for d in ",;\t") else SheetFormat.YAML


def read_sheets(path: str, input_format: str | None = None, encoding: str | None = None,
                note: Callable[[Problem], None] | None = None,
                waiting: Callable[[], None] | None = None) -> Iterator[Sheet]:
    """Every sheet in one source, in order; raises WizardError for a file that cannot be read.

    ``note`` is told what was skipped (a workbook's worksheet that holds no sheet). ``waiting``
    is called before each read from a source that may make the tool wait (standard input, a
    pipe, a device): the caller sends out what it has written so far, so the next stage of a
    pipeline sees each game as soon as it is scored, however the output is buffered.
    """
    source = display_name(path)
    if input_format is None and path.lower().endswith(WORKBOOK_SUFFIXES):
        from .workbook import read_workbook_sheets

        yield from read_workbook_sheets(path, note)
        return
    with open_binary(path) as handle:
        buffered = handle if isinstance(handle, io.BufferedReader) else io.BufferedReader(handle)
        head = buffered.peek(SNIFF_BYTES)[:SNIFF_BYTES]
        encoding = file_encoding(encoding, head)
        kind = input_format or sniff_format(path, head, text_encoding(encoding))
        if waiting is not None and _is_regular(handle):
            waiting = None  # a file's bytes are all there: reading it never waits
        reader = function(FORMATS[SheetFormat(kind)].reader)
        if kind == SheetFormat.CSV:
            yield from reader(decoded_blocks(buffered, source, encoding, waiting=waiting), source,
                              bulk=not general_path())
        else:
            if waiting is not None:
                waiting()
            text = decode_all(read_limited(buffered, source), source, encoding)
            yield from reader(text, source)


def _is_regular(handle: IO[bytes]) -> bool:
    """Whether the handle reads a regular file (not a pipe, terminal or device)."""
    try:
        return stat.S_ISREG(os.fstat(handle.fileno()).st_mode)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False
