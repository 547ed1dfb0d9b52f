"""Which other app's export a text is, told by its start (SPEC §3 "Other apps' exports": by
content, never only by the file name). Kept apart from the readers, which import far more:
every source read is sniffed here, and only an export loads :mod:`~wizard_cli.sheets.exports.keepwiz` or :mod:`~wizard_cli.sheets.exports.escalier`.
"""

from __future__ import annotations

import re

# KeepWiz: what only its records have (a wizard sheet in JSON has none of them); its
# `?importGame=` link (App.jsx), or the bare base64 of a game (of '{"': 'eyI'/'eyJ').
KEEPWIZ_MARKS = ("round_data", "gameState", "player_ids", "roundData")
KEEPWIZ_LINK = re.compile(r"[?&]importGame=([^&#\s]+)")
KEEPWIZ_BARE = re.compile(r"ey[A-Za-z0-9+/_\-]*={0,2}")
# Escalier: the CSV export's first block (export.js gameToRows, the locales' export.header.*
# and common.player) in English and German; its share link's `g` fragment (share.js).
ESCALIER_HEADERS = {
    "en": (
        "round",
        "cards",
        "status",
        "dealer",
        "opens",
        "player",
        "bid",
        "tricks",
        "adjustment",
        "points",
        "running",
    ),
    "de": (
        "runde",
        "karten",
        "status",
        "geber",
        "ausspiel",
        "spieler",
        "ansage",
        "stiche",
        "anpassung",
        "punkte",
        "kumuliert",
    ),
}
ESCALIER_LINK = re.compile(r"[#&]g=([A-Za-z0-9_\-%]+)")
_ESCALIER_LINK_TEXT = re.compile(r"\S*[#&]g=\S*")  # a text that is one link with a `g` fragment
_ESCALIER_JSON = re.compile(r'"app"\s*:\s*"L\'Escalier"')


def keepwiz(head: str) -> bool:
    """Whether the start of a text is a KeepWiz export: JSON with a record's fields, an
    ``importGame`` link, or the bare base64 of a game."""
    text = head.lstrip("\ufeff").strip()
    if text.startswith(("{", "[")):
        return any(f'"{mark}"' in text for mark in KEEPWIZ_MARKS)
    return bool(KEEPWIZ_LINK.search(text)) or len(text) >= 16 and bool(KEEPWIZ_BARE.fullmatch(text))


def escalier(head: str) -> bool:
    """Whether the start of a text is an Escalier export: the JSON export, the CSV export's
    header (English or German) or a share link."""
    text = head.lstrip("\ufeff").lstrip()
    if text.startswith("{"):
        return bool(_ESCALIER_JSON.search(text))
    first = text.split("\n", 1)[0].strip("\r")
    return csv_language(first.split(",")) is not None or bool(
        _ESCALIER_LINK_TEXT.fullmatch(text.strip())
    )


def csv_language(header: list[str]) -> str | None:
    """``en`` or ``de`` for the header of Escalier's CSV export's first block, else None."""
    cells = tuple(cell.strip().lower() for cell in header[:11])
    return next((language for language, names in ESCALIER_HEADERS.items() if cells == names), None)
