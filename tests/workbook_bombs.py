"""Hostile workbooks built as raw zip XML (issue 21, items 2 and 3): a stray far cell, a lying
or late ``<dimension>``, repeated ODS cells, and zip bombs (whitespace, a huge inline string).
Used by test_workbook_limits.py and, by hand, to measure a case's peak memory."""

from __future__ import annotations

import zipfile
from collections.abc import Iterable
from pathlib import Path

CONTENT_TYPES = """<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>
<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>
</Types>"""
ROOT_RELS = """<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>
</Relationships>"""
WORKBOOK = """<?xml version="1.0" encoding="UTF-8"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">
<sheets><sheet name="Game" sheetId="1" r:id="rId1"/></sheets></workbook>"""
WORKBOOK_RELS = """<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>
</Relationships>"""
SHEET_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<worksheet '
    'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
)
GAME = [
    ["round", "player", "bid", "tricks"],
    [1, "Anna", 0, 0],
    [1, "Ben", 1, 1],
    [1, "Cara", 0, 0],
]


def cell(ref: str, value: object) -> str:
    if isinstance(value, (int, float)):
        return f'<c r="{ref}"><v>{value}</v></c>'
    return f'<c r="{ref}" t="inlineStr"><is><t>{value}</t></is></c>'


def game_rows(rows: list[list[object]] = GAME) -> str:
    """``<row>`` elements for a small long sheet in A1:D4."""
    return "".join(
        f'<row r="{number}">'
        + "".join(cell(f"{'ABCD'[col]}{number}", value) for col, value in enumerate(row))
        + "</row>"
        for number, row in enumerate(rows, start=1)
    )


def xlsx(
    path: Path, sheet_xml: str | Iterable[str | bytes], shared: list[str] | None = None
) -> Path:
    """An .xlsx with one worksheet "Game" whose XML is ``sheet_xml`` (text, or pieces streamed
    into the archive: a zip bomb need not be held whole), and the ``shared`` strings if any."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("[Content_Types].xml", CONTENT_TYPES)
        archive.writestr("_rels/.rels", ROOT_RELS)
        archive.writestr("xl/workbook.xml", WORKBOOK)
        relationships = WORKBOOK_RELS
        if shared is not None:
            relationships = relationships.replace(
                "</Relationships>",
                (
                    '<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/'
                    '2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>'
                ),
            )
            archive.writestr(
                "xl/sharedStrings.xml",
                (
                    '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats'
                    f'.org/spreadsheetml/2006/main" count="{len(shared)}" uniqueCount="{len(shared)}">'
                    + "".join(f"<si><t>{text}</t></si>" for text in shared)
                    + "</sst>"
                ),
            )
        archive.writestr("xl/_rels/workbook.xml.rels", relationships)
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as out:
            for piece in [sheet_xml] if isinstance(sheet_xml, str) else sheet_xml:
                out.write(piece.encode() if isinstance(piece, str) else piece)
    return path


def sheet(rows: str, before: str = "") -> str:
    """A worksheet's XML: ``before`` (a ``<dimension>``, a comment) then ``rows``."""
    return f"{SHEET_HEAD}{before}<sheetData>{rows}</sheetData></worksheet>"


def stray_cell(path: Path, before: str = "") -> Path:
    """A small game and one stray cell at XFD1048576, the last cell a worksheet has."""
    far = '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>'
    return xlsx(path, sheet(game_rows() + far, before))


def long_strings(path: Path, count: int, size: int = 1_000_000, tail: str = "") -> Path:
    """A small game, then ``count`` cells of ``size`` characters of random text each (which
    packs little: no ratio gives it away), each ending in ``tail``."""
    import base64
    import os

    def pieces():
        yield sheet(game_rows(), "").split("</sheetData>")[0]
        for number in range(10, 10 + count):
            text = base64.b64encode(os.urandom(size * 3 // 4)).decode()
            yield f'<row r="{number}"><c r="F{number}" t="inlineStr"><is><t>{text}{tail}</t></is></c></row>'
        yield "</sheetData></worksheet>"

    return xlsx(path, pieces())


def whitespace_bomb(path: Path, size: int) -> Path:
    """A small game followed by ``size`` bytes of whitespace inside the sheet data."""
    block = b" " * (1 << 20)

    def pieces():
        yield sheet(game_rows(), "").split("</sheetData>")[0]
        for _ in range(size >> 20):
            yield block
        yield "</sheetData></worksheet>"

    return xlsx(path, pieces())


def string_bomb(path: Path, size: int) -> Path:
    """A valid game of four whose fourth player's name (B5) is an inline string of ``size``
    bytes (so that ``score -f json`` would print it)."""
    block = b"x" * (1 << 20)

    def pieces():
        yield sheet(game_rows(), "").split("</sheetData>")[0]
        yield '<row r="5"><c r="A5"><v>1</v></c><c r="B5" t="inlineStr"><is><t>'
        for _ in range(size >> 20):
            yield block
        yield (
            '</t></is></c><c r="C5"><v>0</v></c><c r="D5"><v>0</v></c></row>'
            "</sheetData></worksheet>"
        )

    return xlsx(path, pieces())


ODS_MANIFEST = """<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">
<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>
<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
</manifest:manifest>"""
ODS_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content '
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" '
    'office:version="1.2">'
    '<office:body><office:spreadsheet><table:table table:name="Game">'
)
ODS_TAIL = "</table:table></office:spreadsheet></office:body></office:document-content>"


def ods_cell(value: object, repeat: int = 1) -> str:
    times = f' table:number-columns-repeated="{repeat}"' if repeat > 1 else ""
    if isinstance(value, int):
        return (
            f'<table:table-cell office:value-type="float" office:value="{value}"{times}>'
            f"<text:p>{value}</text:p></table:table-cell>"
        )
    return f'<table:table-cell office:value-type="string"{times}><text:p>{value}</text:p></table:table-cell>'


def ods_rows(rows: list[list[object]] = GAME) -> str:
    return "".join(
        "<table:table-row>" + "".join(map(ods_cell, row)) + "</table:table-row>" for row in rows
    )


def ods(path: Path, content: str | Iterable[str | bytes]) -> Path:
    """An .ods whose content.xml is ``content`` (text, or pieces streamed into the archive)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr(
            zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet"
        )
        archive.writestr("META-INF/manifest.xml", ODS_MANIFEST)
        with archive.open("content.xml", "w", force_zip64=True) as out:
            for piece in [content] if isinstance(content, str) else content:
                out.write(piece.encode() if isinstance(piece, str) else piece)
    return path


def ods_repeated(path: Path, columns: int = 16384, rows: int = 3000) -> Path:
    """A small game, then a row of ``columns`` repeated valued cells repeated ``rows`` times."""
    far = (
        f'<table:table-row table:number-rows-repeated="{rows}">{ods_cell(1, columns)}'
        "</table:table-row>"
    )
    return ods(path, ODS_HEAD + ods_rows() + far + ODS_TAIL)


def ods_text_bomb(path: Path, size: int) -> Path:
    """A small game whose sixth row holds one text cell of ``size`` bytes."""
    block = b"x" * (1 << 20)

    def pieces():
        yield (
            ODS_HEAD
            + ods_rows()
            + '<table:table-row><table:table-cell office:value-type="string"><text:p>'
        )
        for _ in range(size >> 20):
            yield block
        yield "</text:p></table:table-cell></table:table-row>" + ODS_TAIL

    return ods(path, pieces())


def ods_whitespace_bomb(path: Path, size: int) -> Path:
    """A small game followed by ``size`` bytes of whitespace inside the table."""
    block = b" " * (1 << 20)

    def pieces():
        yield ODS_HEAD + ods_rows()
        for _ in range(size >> 20):
            yield block
        yield ODS_TAIL

    return ods(path, pieces())


def ods_tables(path: Path, tables: Iterable[tuple[str, str]]) -> Path:
    """An .ods of several tables: (name, rows) each."""
    head = ODS_HEAD.rsplit('<table:table table:name="Game">', 1)[0]
    body = "".join(
        f'<table:table table:name="{name}">{rows}</table:table>' for name, rows in tables
    )
    return ods(path, head + body + "</office:spreadsheet></office:body></office:document-content>")
