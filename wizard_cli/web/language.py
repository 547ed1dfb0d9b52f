"""The language of the table's screen (SPEC §9 "German"): English or German, chosen per request.

The choice: ``?lang=de|en`` (remembered in a cookie), else the cookie, else the best of the
browser's ``Accept-Language`` (q-values honoured), else English. Every page text goes through
gettext catalogues (``locale/<lang>/LC_MESSAGES/wizard.mo``, built with Babel from ``wizard.po``)
by Jinja2's i18n extension; numbers and dates are put in the language's form by Babel. The
command line, the JSON API and the engine's own messages stay English.

:class:`Chooser` is ASGI middleware that decides the language of a request and keeps it in a
context variable, which :func:`templates` reads, so the routes need not pass it around.
"""

from __future__ import annotations

import contextvars
import datetime
import functools
import gettext
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import visible

if TYPE_CHECKING:  # (starlette is the serve extra's, and imported only by the server)
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

HERE = Path(__file__).parent
LOCALES = HERE / "locale"
DOMAIN = "wizard"
LANGUAGES = ("en", "de")  # English first: the default, and the language of the msgids
COOKIE = "wizard-lang"
COOKIE_DAYS = 365

current: contextvars.ContextVar[str] = contextvars.ContextVar("wizard_language", default="en")


def best(accept_language: str) -> str | None:
    """The first of :data:`LANGUAGES` the ``Accept-Language`` header prefers (highest q, then
    the header's order; ``q=0`` is a refusal), or None when it asks for none of them."""
    choices: list[tuple[float, int, str]] = []
    for index, part in enumerate(accept_language[:1000].split(",")):
        fields = [field.strip() for field in part.split(";")]
        tag = fields[0].lower()
        quality = 1.0
        for field in fields[1:]:
            if field[:2].lower() == "q=":
                try:
                    quality = float(field[2:])
                except ValueError:
                    quality = 0.0
        if not 0 < quality <= 1:
            continue
        primary = tag.split("-")[0]
        if primary in LANGUAGES:
            choices.append((-quality, index, primary))
    return min(choices)[2] if choices else None


def choose(query: str | None, cookie: str | None, accept_language: str) -> str:
    """The language of one request: ``?lang=``, the remembered cookie, the browser's wish."""
    for given in (query, cookie):
        if given in LANGUAGES:
            return given
    return best(accept_language) or LANGUAGES[0]


@functools.cache
def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``language`` (English: the msgids themselves)."""
    if language == LANGUAGES[0]:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALES, languages=[language])


def number(value: object, language: str) -> str:
    """An integer in the language's form (Babel; for German ``1.234`` and ``-60``, CLDR's
    minus sign for ``de`` being the hyphen-minus)."""
    if not isinstance(value, int) or isinstance(value, bool):
        return "" if value is None else str(value)
    from babel.numbers import format_decimal

    return format_decimal(value, locale=language)


def decimal(value: float, language: str, places: int = 2) -> str:
    """A fraction with ``places`` decimals in the language's form (``100.00``, German
    ``100,00``; no grouping, as the tables print it), rounded as Python's ``f"{:.2f}"`` does so
    that the English text stays the terminal's."""
    from decimal import Decimal

    from babel.numbers import format_decimal

    pattern = "0." + "0" * places if places else "0"
    return format_decimal(Decimal(f"{value:.{places}f}"), format=pattern, locale=language)


def percent(fraction: float, language: str) -> str:
    """A fraction as a per cent with one decimal in the language's form (``88.9%``, German
    ``88,9 %`` with CLDR's no-break space), rounded as ``f"{:.1f}"``."""
    from decimal import Decimal

    from babel import Locale
    from babel.numbers import format_percent

    pattern = Locale.parse(language).percent_formats[None].pattern.replace("0", "0.0", 1)
    return format_percent(Decimal(f"{fraction * 100:.1f}") / 100, format=pattern, locale=language)


def list_date(value: object, language: str) -> str:
    """A date in the folder's list: as the sheet writes it (ISO) on the English page, where the
    list has always shown it so; in the long form (:func:`date`) in any other language."""
    return (
        ("" if value is None else str(value)) if language == LANGUAGES[0] else date(value, language)
    )


def date(value: object, language: str) -> str:
    """A sheet's date in the language's long form when it is an ISO date, else as written."""
    try:
        day = value if isinstance(value, datetime.date) else datetime.date.fromisoformat(str(value))
    except ValueError:
        return "" if value is None else str(value)
    from babel.dates import format_date

    return format_date(day, format="long", locale=language)


@functools.cache
def environment(language: str):
    """The Jinja2 environment of one language: autoescaped, every printed value with its control
    characters escaped (SPEC §8), ``_``/``gettext``/``ngettext`` from the catalogue (newstyle:
    ``_("%(name)s deals", name=...)``, whose values are escaped as any printed value), and the
    ``number``/``date``/``list_date``/``translated`` filters."""
    from jinja2 import Environment, FileSystemLoader, pass_context
    from markupsafe import Markup

    def shown(value: object) -> object:
        return visible(value) if isinstance(value, str) else value

    catalogue = translations(language)

    def formatted(context, text: str, values: dict) -> str:
        # As jinja2.ext's newstyle gettext, but every value also through ``visible`` (a name
        # with a control character is escaped inside a sentence as it is everywhere else).
        if context.eval_ctx.autoescape:
            text = Markup(text)
        return text % {
            key: value if hasattr(value, "__html__") else shown(value)
            for key, value in values.items()
        }

    @pass_context
    def _gettext(context, message: str, **values: object) -> str:
        return formatted(context, catalogue.gettext(message), values)

    @pass_context
    def _ngettext(context, singular: str, plural: str, count: int, **values: object) -> str:
        values.setdefault("num", count)
        return formatted(context, catalogue.ngettext(singular, plural, count), values)

    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=True,
        finalize=shown,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    # jinja2's types do not declare what an extension adds to the Environment (i18n's extend())
    env.install_gettext_callables(_gettext, _ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(
        _=_gettext, gettext=_gettext, ngettext=_ngettext, language=language, languages=LANGUAGES
    )
    env.filters["number"] = lambda value: number(value, language)
    env.filters["date"] = lambda value: date(value, language)
    env.filters["list_date"] = lambda value: list_date(value, language)
    # a text the core gives (a setting's meaning): its translation when the catalogue has one,
    # as plain text (escaped when printed, unlike ``_``'s, which is the page's own markup)
    env.filters["translated"] = lambda text: catalogue.gettext(str(text))
    return env


def templates():
    """The template environment of the language of the request being answered."""
    return environment(current.get())


class Chooser:
    """ASGI middleware: decides each HTTP request's language into :data:`current`; a ``?lang=``
    sets the cookie that remembers it (``SameSite=Strict``), and every response says it
    varies by ``Accept-Language`` and ``Cookie``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        from urllib.parse import parse_qs

        headers = dict(scope.get("headers") or [])
        query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang", [None])[-1]
        cookie = _cookie(headers.get(b"cookie", b"").decode("latin-1"), COOKIE)
        accept = headers.get(b"accept-language", b"").decode("latin-1")
        language = choose(query, cookie, accept)
        extra = [(b"vary", b"Accept-Language, Cookie")]
        if query in LANGUAGES:
            extra.append(
                (
                    b"set-cookie",
                    f"{COOKIE}={query}; Path=/; Max-Age="
                    f"{COOKIE_DAYS * 86400}; SameSite=Strict".encode("latin-1"),
                )
            )

        async def chosen(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        token = current.set(language)
        try:
            await self.app(scope, receive, chosen)
        finally:
            current.reset(token)


def _cookie(header: str, name: str) -> str | None:
    """One cookie's value from a ``Cookie`` header (None when absent)."""
    for part in header[:4096].split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None
