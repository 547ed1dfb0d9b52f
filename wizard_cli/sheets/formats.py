"""The sheet formats, registered in one place: how each is detected, read and written.

:class:`~wizard_cli.game.model.SheetFormat` names them; :data:`FORMATS` says, for each, the file
suffixes it is known by, its reader and its writer, which live together in the format's own
module (imported only when used: a CSV season never loads PyYAML). :func:`read_sheets` hands a
source to its reader; the bytes are opened and decoded below the readers, in :mod:`.source`.
:func:`serialize` writes sheets, and :func:`convert` / :func:`check_convertible` prove that
what was written reads back the same, so ``wizard convert`` refuses rather than loses anything.
"""

from __future__ import annotations

import io
import os
import re
import stat
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import IO, TYPE_CHECKING, Any

from ..editing.spliced import Streamed
from ..errors import Problem, WizardError
from ..game.model import GameRun, Sheet, SheetFormat
from ..game.seating import Seating
from ..game.settings import resolve
from .source import (
    decode_all,
    decoded_blocks,
    display_name,
    file_encoding,
    open_binary,
    read_limited,
    streamed_text,
    text_encoding,
)
from .writing import Portable, SheetWriter, cell_value, has_values

if TYPE_CHECKING:
    from ..game.seating import Seating


@dataclass(frozen=True)
class Registered:
    """One format: the suffixes that name it, and where its reader and writer live."""

    suffixes: tuple[str, ...]  # what a file is read as (and written as, for --output)
    reader: str | SheetFormat  # "module:function" of its reader, or the format it is read as
    writer: str | None  # "module:Class" of its writer, a writing.SheetWriter; None: read only
    # "module:function" telling the format by the start of a text, before any suffix is looked
    # at (another app's export: a .json, .csv or .txt is told by its content, SPEC §3); such a
    # reader is handed the file's bytes and reads them itself.
    sniffer: str | None = None


FORMATS: dict[SheetFormat, Registered] = {
    SheetFormat.YAML: Registered(
        (".yaml", ".yml"), "yaml.sheets:read_yaml_sheets", "yaml.sheets:YamlWriter"
    ),
    SheetFormat.JSON: Registered((".json",), SheetFormat.YAML, "yaml.sheets:JsonWriter"),
    SheetFormat.CSV: Registered(
        (".csv", ".tsv", ".txt"), "csv.sheets:read_csv_sheets", "csv.long:LongCsvWriter"
    ),
    SheetFormat.WIDE_CSV: Registered(
        (),
        SheetFormat.CSV,  # a CSV, told by its header
        "csv.wide:WideCsvWriter",
    ),
    SheetFormat.KEEPWIZ: Registered(
        (), "exports.keepwiz:read_keepwiz_sheets", None, "exports.kinds:keepwiz"
    ),
    SheetFormat.ESCALIER: Registered(
        (), "exports.escalier:read_escalier_sheets", None, "exports.kinds:escalier"
    ),
}
# what --input-format can name
INPUT_FORMATS = (SheetFormat.YAML, SheetFormat.CSV, SheetFormat.KEEPWIZ, SheetFormat.ESCALIER)
WRITTEN_FORMATS = tuple(kind for kind, known in FORMATS.items() if known.writer)  # convert --to
WORKBOOK_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".ods")  # each worksheet read as a CSV
SNIFF_BYTES = 8192


def function(where: str) -> Callable:
    """A registered reader or writer, imported when first asked for (and then remembered: a
    folder of sheets asks for the sniffers and the reader again for every file)."""
    found = _FUNCTIONS.get(where)
    if found is None:
        module, name = where.split(":")
        found = _FUNCTIONS[where] = getattr(import_module(f"{__package__}.{module}"), name)
    return found


_FUNCTIONS: dict[str, Callable] = {}


def written_as(path: str) -> SheetFormat | None:
    """The format an output file's suffix names (``-o season.yaml``), if any (a ``.txt`` or
    ``.tsv`` is read as CSV but names no format to write)."""
    suffix = os.path.splitext(path)[1].lower()
    for name in (SheetFormat.YAML, SheetFormat.JSON):
        if suffix in FORMATS[name].suffixes:
            return name
    return SheetFormat.CSV if suffix == ".csv" else None


def writer(target: SheetFormat | str) -> SheetWriter:
    """A new writer of the target format (to learn the sheets, then write them); a read-only
    format (another app's export) has none."""
    where = FORMATS[SheetFormat(target)].writer
    if where is None:
        raise WizardError(
            Problem(
                f"{target} is read, not written: convert writes "
                + ", ".join(map(str, WRITTEN_FORMATS))
            )
        )
    return function(where)()


def serialize(sheets: Sequence[Portable], target: SheetFormat | str) -> str:
    """The text of validated sheets in the target format, whole."""
    return writer(target).text(sheets)


def sniff_format(path: str, head: bytes, codec: str = "utf-8") -> SheetFormat:
    """Another app's export by its content; else YAML or CSV, from the file's extension or else
    from how its first line looks."""
    text = head.decode(codec, "replace")
    for kind, known in FORMATS.items():
        if known.sniffer is not None and function(known.sniffer)(text):
            return kind
    lower = path.lower()
    if lower.endswith(FORMATS[SheetFormat.YAML].suffixes + FORMATS[SheetFormat.JSON].suffixes):
        return SheetFormat.YAML
    if lower.endswith(FORMATS[SheetFormat.CSV].suffixes):
        return SheetFormat.CSV
    first = next((ln.strip() for ln in text.lstrip("\ufeff").splitlines() if ln.strip()), "")
    if first.startswith(("{", "[", "---", "#", "%")) or re.match(r"^[\w\"' -]+:(\s|$)", first):
        return SheetFormat.YAML
    return SheetFormat.CSV if any(d in first for d in ",;\t") else SheetFormat.YAML


def read_sheets(
    path: str,
    input_format: str | None = None,
    encoding: str | None = None,
    note: Callable[[Problem], None] | None = None,
    waiting: Callable[[], None] | None = None,
    runs: bool = False,
    data: bytes | None = None,
    follow: bool = True,
) -> Iterator[Sheet | GameRun]:
    """Every sheet in one source, in order; raises WizardError for a file that cannot be read.

    ``note`` is told what was skipped (a workbook's worksheet that holds no sheet). ``waiting``
    is called before each read from a source that may make the tool wait (standard input, a
    pipe, a device): the caller sends out what it has written so far, so the next stage of a
    pipeline sees each game as soon as it is scored, however the output is buffered.
    ``runs=True`` (the season lane) lets a long CSV hand out whole regular games as runs.
    ``data``: the file's bytes, already read (``serve`` reads a sheet once, so it knows the
    bytes the game it shows came from); a workbook is still read from ``path``. ``follow``:
    whether a symbolic link at ``path`` is followed (``serve DIR``'s are refused).
    """
    source = display_name(path)
    if input_format is None and path.lower().endswith(WORKBOOK_SUFFIXES):
        from .workbook.reader import read_workbook_sheets

        yield from read_workbook_sheets(path, note)
        return
    with open_binary(path, follow) if data is None else io.BytesIO(data) as handle:
        # (typeshed's IO[bytes] has no readinto, which BufferedReader asks of what it reads:
        # stdin's buffer and BytesIO, the handles wrapped here, both have it)
        buffered = handle if isinstance(handle, io.BufferedReader) else io.BufferedReader(handle)  # type: ignore[type-var]
        head = buffered.peek(SNIFF_BYTES)[:SNIFF_BYTES]
        encoding = file_encoding(encoding, head)
        kind = input_format or sniff_format(path, head, text_encoding(encoding))
        if waiting is not None and _is_regular(handle):
            waiting = None  # a file's bytes are all there: reading it never waits
        reader = function(FORMATS[SheetFormat(kind)].reader)
        if FORMATS[SheetFormat(kind)].sniffer is not None:  # reads the bytes itself
            yield from reader(buffered, source, encoding)
        elif kind == SheetFormat.CSV:
            yield from reader(
                decoded_blocks(buffered, source, encoding, waiting=waiting),
                source,
                runs=runs,
                note=note,
            )
        else:
            if waiting is not None:
                waiting()
            # a large file: parsed as it is decoded
            text: str | Streamed | None = streamed_text(buffered, encoding)
            if text is None:
                text = decode_all(read_limited(buffered, source), source, encoding)
            yield from reader(text, source)


def _is_regular(handle: IO[bytes]) -> bool:
    """Whether the handle reads a regular file (not a pipe, terminal or device)."""
    try:
        return stat.S_ISREG(os.fstat(handle.fileno()).st_mode)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False


# --- proving a conversion --------------------------------------------------------------------


def _read_as(kind: SheetFormat) -> SheetFormat:
    """The format whose reader reads ``kind`` (JSON is read as YAML, a wide CSV as a CSV)."""
    reader = FORMATS[kind].reader
    return reader if isinstance(reader, SheetFormat) else kind


def read_back(
    text: str | Streamed, target: SheetFormat | str, source: str = "<converted>"
) -> list[Sheet]:
    """What our reader makes of text we wrote (to prove a conversion lost nothing); a YAML or
    JSON text may be a Streamed one, read as it is written."""
    kind = _read_as(SheetFormat(target))
    reader = function(FORMATS[kind].reader)
    if kind == SheetFormat.CSV:
        assert isinstance(text, str)  # only a YAML or JSON text is written as it is read
        return list(reader(io.StringIO(text), source))
    return list(reader(text, source))


def conversion_content(sheet: Sheet | Portable, carries_rules: bool) -> tuple:
    """What a conversion must carry from a sheet to its copy in another format: players and
    every value, the game's id and date (and, where the format carries them, the rules and the
    rest of the metadata). Both sides are brought to what every format can say: a CSV's ids are
    text, so compared as text; the rules as their effective values (a written sheet makes them
    explicit, :class:`~.writing.Portable`); a bad value as the text typed.

    Not what an in-place change must leave as it was (``app/recording.py``,
    ``left_as_it_was``): that compares one sheet's own text before and after, settings as
    written; this compares two formats' sheets, as far as the target carries them."""
    values = lambda row: None if row is None else tuple(cell_value(v) for v in row)  # noqa: E731
    rounds = tuple(
        (
            values(r.bids),
            values(r.tricks),
            values(r.points) if has_values(r.points) else None,
            r.bomb,
            r.cloud,
        )
        for r in sheet.rounds
    )
    core: tuple[Any, ...] = (tuple(sheet.players), rounds, seating_content(sheet.seating))
    if not carries_rules:
        return core + (None if sheet.game is None else str(sheet.game), sheet.date)
    core += (sheet.game, sheet.date, sheet.place, sheet.notes)
    if isinstance(sheet, Portable):
        settings = tuple(sheet.settings.items())
    else:
        resolved = resolve([sheet.settings], len(sheet.players))
        effective = resolved.settings.as_dict()
        settings = tuple((k, v) for k, v in effective.items() if k in resolved.sources)
    return core + (sheet.title, sheet.first_dealer, settings)


def seating_content(seating: Seating | None) -> tuple | None:
    """What a sheet records of who sits when (SPEC §1), as every format that carries it reads it
    back: None when it records nothing (an empty ``out``, a table seated as by default)."""
    if seating is None:
        return None
    out = tuple(
        sorted((number, tuple(sorted(seats))) for number, seats in seating.out.items() if seats)
    )
    dealers = tuple(sorted(seating.dealers.items()))
    if not (seating.changes or dealers):
        return None
    return tuple(seating.joins), tuple(seating.leaves), tuple(seating.start), out, dealers


def same_sheets(
    written: Sequence[Portable], read: Sequence[Sheet], target: SheetFormat | str
) -> bool:
    """True when the sheets read back carry everything the format can carry, unchanged."""
    format_ = writer(target)
    written = [format_.carried(p) for p in written]
    if len(written) != len(read) or any(sheet.problems for sheet in read):
        return False
    rules = format_.carries_rules
    return all(
        conversion_content(w, rules) == conversion_content(r, rules) for w, r in zip(written, read)
    )


def convert(sheets: Sequence[Portable], target: SheetFormat | str) -> str:
    """Serialize and prove the text reads back the same; refuse rather than lose anything."""
    text = serialize(sheets, target)
    if not same_sheets(sheets, read_back(text, target), target):
        raise cannot_convert(target, sheets[0].source if sheets else None)
    return text


def cannot_convert(target: SheetFormat | str, source: str | None) -> WizardError:
    """The refusal of a conversion that would change the sheet."""
    return WizardError(
        Problem(
            f"cannot write this as {target} without changing it (its "
            "names or values do not fit the format): try yaml or json",
            source,
        )
    )


def check_convertible(p: Portable, target: SheetFormat | str) -> None:
    """Prove that one sheet, written alone in the target format, reads back the same (a season
    is written one sheet at a time, each proved alone: no season is held whole)."""
    if _read_as(SheetFormat(target)) == SheetFormat.YAML:  # read back as it is written
        text: str | Streamed = Streamed.of(lambda: writer(target).stream([p]))
    else:
        text = serialize([p], target)
    if not same_sheets([p], read_back(text, target), target):
        raise cannot_convert(target, p.source)
