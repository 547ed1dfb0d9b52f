"""The games other apps put in a link: the payload found in the link's text, base64 decoded and,
for a compressed one, inflated a piece at a time, refused as soon as it passes its bound (a
deflate bomb is never inflated in full, SPEC §3).
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib
from urllib.parse import unquote

from ...errors import Problem, WizardError

MAX_LINK_CHARS = 200_000  # Escalier's own bound on a payload (share.js MAX_PAYLOAD_CHARS)
MAX_INFLATED_BYTES = 2_000_000  # and on what it decodes to (MAX_INFLATED_BYTES)
_PIECE = 1 << 16
_BASE64 = re.compile(r"[A-Za-z0-9+/_\-]*={0,2}")


def parameter(text: str, pattern: re.Pattern[str]) -> str | None:
    """The value a link gives its parameter (the pattern's group 1), percent-decoded (a
    messaging app may escape it), or None if the text holds no such link."""
    match = pattern.search(text)
    if match is None:
        return None
    value = match.group(1)
    return unquote(value) if "%" in value else value


def decoded(payload: str, source: str, what: str) -> bytes:
    """Base64 (standard or URL-safe, padding optional) → bytes; refuses a payload over
    MAX_LINK_CHARS before decoding it."""
    payload = payload.strip().replace(" ", "+")  # a query string turns '+' into a space
    if len(payload) > MAX_LINK_CHARS:
        raise WizardError(
            Problem(
                f"{what}: {len(payload):,} characters, more than the "
                f"{MAX_LINK_CHARS:,} a shared game can have",
                source,
            )
        )
    if not _BASE64.fullmatch(payload):
        raise WizardError(Problem(f"{what}: not base64 (a character outside its alphabet)", source))
    text = payload.rstrip("=").replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError) as error:
        raise WizardError(Problem(f"{what}: not base64 ({error})", source)) from None


def inflated(data: bytes, source: str, what: str) -> bytes:
    """Raw deflate (no header) → bytes, a piece at a time: refused once the output passes
    MAX_INFLATED_BYTES, before the rest is inflated."""
    inflater = zlib.decompressobj(-15)
    out = bytearray()
    try:
        while True:
            out += inflater.decompress(data, _PIECE)
            if len(out) > MAX_INFLATED_BYTES:
                raise too_large(source, what)
            data = inflater.unconsumed_tail
            if not data:
                break
        out += inflater.flush(MAX_INFLATED_BYTES + 1 - len(out))
    except zlib.error as error:
        raise WizardError(Problem(f"{what}: not a compressed game ({error})", source)) from None
    if len(out) > MAX_INFLATED_BYTES:
        raise too_large(source, what)
    if not inflater.eof:
        raise WizardError(Problem(f"{what}: cut short (the compressed game does not end)", source))
    return bytes(out)


def too_large(source: str, what: str) -> WizardError:
    """The refusal of a payload that decodes past its bound."""
    return WizardError(
        Problem(
            f"{what}: decodes to more than {MAX_INFLATED_BYTES:,} bytes, "
            "more than a shared game can have",
            source,
        )
    )
