"""Values as YAML text that our reader reads back exactly: the scalars every YAML writer and
in-place edit uses (``No`` and ``1`` quoted as names, control characters escaped)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from ...game.settings import SPEC_BY_KEY, value_text

# --- YAML scalars ------------------------------------------------------------------------

# Characters YAML cannot hold raw (or would read as a line break): escaped in double quotes.
_UNSAFE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]"
)


def _escape_unsafe(text: str) -> str:
    """Replace characters YAML may not read raw with ``\\uXXXX`` (inside JSON/YAML double quotes)."""
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def yaml_scalar(value: Any, flow: bool = True) -> str:
    """One value as YAML text that our reader reads back as exactly that value.

    Text YAML would read as something else (``No``, ``1``, ``null``, ``a: b``, ``#x``) is
    quoted; text with line breaks or control characters is double-quoted with escapes. The
    result is safe inside a flow list or mapping, unless ``flow`` is False (a block value,
    where ``Saturday, big table`` needs no quotes).
    """
    import yaml  # PyYAML's emitter only when a text is written (start-up matters)

    if value is None or isinstance(value, bool):
        return value_text(value)
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if flow:
        dumped = yaml.safe_dump([text], default_flow_style=True, allow_unicode=True, width=10**9)
        inner = dumped.strip()[1:-1]
    else:
        dumped = yaml.safe_dump(
            {"k": text}, default_flow_style=False, allow_unicode=True, width=10**9
        )
        inner = dumped[len("k: ") :].rstrip("\n")
    if "\n" in inner or _UNSAFE.search(inner):
        import json  # only when a sheet is written, and only for such a text

        return _escape_unsafe(json.dumps(text, ensure_ascii=False))
    return inner


# Characters: a text this long is written double-quoted a piece at a time, and a change holds a
# title, place or notes this long by its fingerprint (app/recording.py).
LONG_TEXT = 1 << 16


def block_scalar_pieces(value: Any) -> Iterator[str]:
    """:func:`yaml_scalar` of a block value, a piece at a time. A text of ``LONG_TEXT``
    characters or more is written as the double-quoted (JSON) text that :func:`yaml_scalar`
    gives a text with line breaks, in pieces: PyYAML's emitter looks at every character in
    Python (three minutes for a 60 MB ``notes``) and makes it whole (SPEC §4)."""
    if isinstance(value, str) and len(value) >= LONG_TEXT:
        yield from json_text_pieces(value)
    else:
        yield yaml_scalar(value, flow=False)


def flow_list(values: Iterable[Any]) -> str:
    """``[1, 0, null, 2]`` / ``[Anna, 'No']``."""
    return "[" + ", ".join(yaml_scalar(v) for v in values) + "]"


def flow_map(pairs: Iterable[tuple[str, Any]]) -> str:
    """``{Anna: 1, 'No': 0}``."""
    return "{" + ", ".join(f"{yaml_scalar(k)}: {yaml_scalar(v)}" for k, v in pairs) + "}"


def setting_text(key: str, value: Any) -> str:
    """A setting's value in YAML: plain where the reader takes it back (``screwTheDealer: off``)."""
    if value == "off" and "off" in dict(SPEC_BY_KEY[key].aliases).values():
        return value  # YAML reads a plain off as false, which screwTheDealer takes as 'off'
    return yaml_scalar(value)


def json_text(value: Any) -> str:
    """Compact one-line JSON that YAML reads back too."""
    import json  # only when a sheet is written, not at every start

    return _escape_unsafe(json.dumps(value, ensure_ascii=False, separators=(", ", ": ")))


PIECE = 1 << 20  # characters of a long text encoded at a time


def json_text_pieces(value: Any) -> Iterator[str]:
    """:func:`json_text` a piece at a time: a long text is encoded a slice at a time (each
    character is escaped on its own, so the pieces make the same text), never copied whole."""
    if not isinstance(value, str) or len(value) <= PIECE:
        yield json_text(value)
        return
    yield '"'
    for at in range(0, len(value), PIECE):
        yield json_text(value[at : at + PIECE])[1:-1]
    yield '"'
