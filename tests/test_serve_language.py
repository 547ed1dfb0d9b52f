"""The table's screen in English or German (SPEC §9 "German"): the language chosen by
``Accept-Language`` (q-values), ``?lang=`` and its cookie; every page text from the catalogue
(a recording translator asks the .po for each msgid a page asks for, and no English text node
is left on a German page); the catalogue matches the templates and its compiled .mo; the page's
status line is the terminal's; numbers and dates in the language's form."""

from __future__ import annotations

import gettext
import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the serve extra is not installed (pip install '.[serve]')")
pytest.importorskip("babel", reason="the serve extra is not installed (pip install '.[serve]')")

from babel.messages.extract import extract_from_dir  # noqa: E402
from babel.messages.mofile import write_mo  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402
from helpers import DEALER_TO_BID, SAMPLES, WORKED  # noqa: E402
from test_serve import served  # noqa: E402

from wizard_cli.web import language  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "wizard_cli" / "web"
PO = WEB / "locale" / "de" / "LC_MESSAGES" / "wizard.po"
MO = PO.with_suffix(".mo")
IN_PROGRESS = SAMPLES / "six-players-in-progress.yaml"
LATECOMER = SAMPLES / "latecomer.yaml"


def catalogue():
    with PO.open("rb") as file:
        return read_po(file, locale="de")


# Sheets that between them reach every branch of the templates: bidding (with the dealer's
# forbidden bid), all bids in, no trump, a finished game, players who can no longer win, an
# invalid sheet with and without a last valid game, a shared win.
SHEETS = {
    "progress": IN_PROGRESS.read_text(),
    "worked": WORKED.read_text(),
    "forbidden": DEALER_TO_BID.read_text(),  # A, the dealer, bids last and may not bid 1
    "all-bid": "date: 2026-12-04\nplace: Kiel\nplayers: [Anna, Ben, Cara]\n"
    "rounds:\n  - bids: [1, 0, 0]\n",
    "fresh": "players: [Anna, Ben, Cara]\nrounds: []\n",
    "shared": "players: [Anna, Ben, Cara]\nsettings: {roundMode: custom, customRoundCount: 1}\n"
    "rounds:\n  - bids: [0, 0, 0]\n    tricks: [0, 0, 1]\n",
    "broken": "players: [Anna, Ben, Cara]\nrounds:\n  - bids: [9, 0, 0]\n",
    "empty": "players: [Anna]\n",
    "seats": LATECOMER.read_text(),  # players not seated in a round (`out`), a joiner, a leaver
}
PAGES = ("/", "/?big=1", "/board", "/enter", "/enter/board")


def pages(tmp_path: Path, headers: dict, token: str | None = "t" * 32) -> dict[str, str]:
    """Every page of every sheet above, by (sheet, path)."""
    shown = {}
    for name, text in SHEETS.items():
        path = tmp_path / f"{name}.yaml"
        path.write_text(text)
        with served(path, token=token) as client:
            for page in PAGES:
                response = client.get(page, headers=headers)
                assert response.status_code in (200, 404), (name, page, response.text)
                shown[name, page] = response.text
    return shown


def test_every_text_a_page_asks_for_is_in_the_catalogue_with_a_german_text(tmp_path, monkeypatch):
    asked: set[str] = set()
    real = gettext.translation(language.DOMAIN, language.LOCALES, languages=["de"])

    class Recording(gettext.NullTranslations):
        def gettext(self, message):
            asked.add(message)
            return real.gettext(message)

        def ngettext(self, singular, plural, count):
            asked.add(singular)
            return real.ngettext(singular, plural, count)

    monkeypatch.setattr(language, "translations", lambda code: Recording())
    language.environment.cache_clear()
    try:
        pages(tmp_path, {"Accept-Language": "de"})
        pages(tmp_path, {"Accept-Language": "de"}, token=None)  # the entry-is-off page
    finally:
        language.environment.cache_clear()
    german = {m.id if isinstance(m.id, str) else m.id[0]: m.string for m in catalogue() if m.id}
    assert len(asked) > 40
    missing = sorted(text for text in asked if text not in german)
    assert not missing, f"not in the catalogue: {missing}"
    empty = sorted(
        text
        for text in asked
        if not (german[text] if isinstance(german[text], str) else all(german[text]))
    )
    assert not empty, f"no German text: {empty}"


class Texts(HTMLParser):
    """The visible text nodes of a page, outside elements marked ``lang="en"`` (the engine's
    English messages) and outside <script>/<style>."""

    VOID = {"meta", "link", "input", "br", "img", "hr", "circle", "line", "polyline"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.texts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        # (the page's own <html lang> is not a mark: on the English page it would hide it all)
        marked = tag != "html" and dict(attrs).get("lang") == "en"
        english = marked or any(e for _, e in self.stack[-1:])
        self.stack.append((tag, english))

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        skip = any(tag in ("script", "style", "title") for tag, _ in self.stack)
        if data.strip() and not skip and not any(english for _, english in self.stack[-1:]):
            self.texts.append(data.strip())


def texts(html: str) -> list[str]:
    parser = Texts()
    parser.feed(html)
    return parser.texts


# What a sheet brings (names, title, file name, version) is shown as it is in both languages.
NOT_WORDS = re.compile(
    r"\S*/\S*|[\d\s.,:;/()+\-–—·#…?]+|wizard serve(?: --\w+)*|wizard|[\w-]+\.yaml"
)


def test_no_english_text_is_left_on_a_german_page(tmp_path):
    english = pages(tmp_path, {"Accept-Language": "en"})
    german = pages(tmp_path, {"Accept-Language": "de"})
    names = {
        "Anna",
        "Ben",
        "Cara",
        "Dan",
        "Eva",
        "Fritz",
        "Olga",
        "Bonus",
        "English",
        "Deutsch",
        "Kiel",
        "A",
        "B",
        "C",
    }
    names |= set(
        re.findall(r"players: \[([^\]]*)\]", IN_PROGRESS.read_text() + WORKED.read_text())[0]
        .replace(" ", "")
        .split(",")
    )
    for key, html in english.items():
        german_texts = set(texts(german[key]))
        for text in texts(html):
            words = NOT_WORDS.sub(" ", text).split()
            if not [word for word in words if word not in names and word not in titles()]:
                continue  # only names, figures and punctuation
            assert text not in german_texts, f"{key}: English on the German page: {text!r}"


def titles() -> set[str]:
    """The words of the sample sheets' titles (a sheet's own text)."""
    sheets = IN_PROGRESS.read_text() + WORKED.read_text() + LATECOMER.read_text()
    found = re.findall(r"^title: (.*)$", sheets, re.M)
    return {word for title in found for word in NOT_WORDS.sub(" ", title.strip("'\"")).split()}


def test_the_catalogue_holds_exactly_the_texts_of_the_templates():
    """Babel's extraction (babel.cfg) of the templates gives the .po's msgids, no more, no less:
    a text marked in a template but not translated fails here."""
    method_map, options_map = [], {}
    section = None
    for line in (ROOT / "babel.cfg").read_text().splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            method, pattern = line[1:-1].split(":", 1)
            section = pattern.strip()
            method_map.append((section, method.strip()))
            options_map[section] = {}
        elif "=" in line and section and not line.startswith("#"):
            key, value = (part.strip() for part in line.split("=", 1))
            options_map[section][key] = value
    extracted = {
        message if isinstance(message, str) else message[0]
        for _, _, message, _, _ in extract_from_dir(
            str(WEB),
            method_map,
            options_map,
            keywords={"_": None, "gettext": None, "ngettext": (1, 2)},
        )
    }
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in catalogue() if m.id}
    assert extracted == ids, (sorted(extracted - ids), sorted(ids - extracted))
    assert all(
        m.string and (isinstance(m.string, str) or all(m.string)) for m in catalogue() if m.id
    )
    assert not any(m.fuzzy for m in catalogue() if m.id)


def test_the_shipped_mo_is_the_compiled_po():
    compiled = io.BytesIO()
    write_mo(compiled, catalogue())
    ours = gettext.GNUTranslations(io.BytesIO(compiled.getvalue()))
    shipped = gettext.GNUTranslations(MO.open("rb"))
    assert ours._catalog == shipped._catalog  # noqa: SLF001 (the messages themselves)


@pytest.mark.parametrize(
    ("header", "chosen"),
    [
        ("de", "de"),
        ("de-AT,de;q=0.9,en;q=0.8", "de"),
        ("en-GB,en;q=0.9,de;q=0.8", "en"),
        ("en;q=0.5, de;q=0.9", "de"),
        ("fr, de-CH;q=0.7", "de"),
        ("fr", "en"),
        ("", "en"),
        ("de;q=0, en", "en"),
        ("de;q=0", "en"),
        ("de;q=abc, en;q=0.1", "en"),
        ("*", "en"),
        ("x" * 5000 + ",de", "en"),
    ],
)
def test_accept_language_with_its_q_values_chooses(header, chosen, tmp_path):
    assert language.choose(None, None, header) == chosen
    path = tmp_path / "s.yaml"
    path.write_text(SHEETS["progress"])
    with served(path) as client:
        response = client.get("/", headers={"Accept-Language": header})
    assert f'<html lang="{chosen}">' in response.text
    assert "accept-language" in response.headers["vary"].lower()


def test_lang_in_the_address_chooses_and_is_remembered_in_a_strict_cookie(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SHEETS["progress"])
    with served(path) as client:
        chosen = client.get("/?lang=de", headers={"Accept-Language": "en"})
        cookie = chosen.headers["set-cookie"]
        later = client.get("/enter", headers={"Accept-Language": "en"})  # the cookie is sent
        back = client.get("/?lang=en", headers={"Accept-Language": "de"})
        again = client.get("/", headers={"Accept-Language": "de"})
        odd = client.get("/?lang=xx", headers={"Accept-Language": "de"})
    assert '<html lang="de">' in chosen.text and "Rangliste" in chosen.text
    assert cookie.startswith("wizard-lang=de;") and "SameSite=Strict" in cookie
    assert "Path=/" in cookie
    assert '<html lang="de">' in later.text and "Zur Punktetafel" in later.text
    assert '<html lang="en">' in back.text and '<html lang="en">' in again.text
    assert "set-cookie" not in odd.headers and '<html lang="en">' in odd.text


def test_the_status_line_on_the_page_is_the_terminals(tmp_path):
    """The page composes the status line from the catalogue; in English it is word for word
    what ``wizard score`` and ``next`` say (output/game_views.status_line)."""
    import asyncio
    import html as html_module

    from wizard_cli.app.batch import RuleOptions, inputs
    from wizard_cli.output.game_views import status_line
    from wizard_cli.web.watch import SheetWatch

    for name in ("progress", "worked", "forbidden", "all-bid", "fresh", "shared"):
        path = tmp_path / f"{name}.yaml"
        path.write_text(SHEETS[name])
        watch = SheetWatch(inputs([str(path)], RuleOptions()))
        asyncio.run(watch.refresh())
        expected = status_line(watch.result)
        with served(path) as client:
            page = client.get("/", headers={"Accept-Language": "en"}).text
        shown = re.search(r'<p class="status">(.*?)</p>', page, re.S).group(1)
        assert html_module.unescape(shown.strip()) == expected, name


def test_a_german_page_speaks_german(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SHEETS["forbidden"])
    with served(path) as client:
        board = client.get("/", headers={"Accept-Language": "de"}).text
        entry = client.get("/enter", headers={"Accept-Language": "de"}).text
    assert "Runde 1 von 20 läuft: A sagt an (darf nicht 1 ansagen)" in board
    assert '<p class="forbidden">A darf nicht 1 ansagen</p>' in board
    assert 'data-bid="1" disabled title="A darf nicht 1 ansagen">1</button>' in entry
    assert 'data-say-recorded="Eingetragen."' in entry
    assert 'data-say-not-recorded="Nicht eingetragen: {reason}"' in entry


def test_names_inside_a_translated_sentence_are_escaped(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text(
        'players: ["<b>An\\u202ena</b>", Ben, "Ca\\x07ra"]\nrounds:\n  - bids: [0, null, null]\n'
    )
    with served(path) as client:
        html = "".join(
            client.get("/", headers={"Accept-Language": lang}).text
            + client.get("/enter", headers={"Accept-Language": lang}).text
            for lang in ("de", "en")
        )
    assert "\u202e" not in html and "\x07" not in html and "<b>An" not in html
    assert r"&lt;b&gt;An\u202ena&lt;/b&gt;" in html and "Ben sagt an" in html


def test_numbers_and_dates_in_the_languages_form():
    assert language.number(1234, "de") == "1.234" and language.number(1234, "en") == "1,234"
    # CLDR's minus sign for German is the hyphen-minus: -60 as Babel gives it
    assert language.number(-60, "de") == "-60"
    assert language.date("2026-12-04", "de") == "4. Dezember 2026"
    assert language.date("2026-12-04", "en") == "December 4, 2026"
    assert language.date("last Friday", "de") == "last Friday"  # not a date: as written


def test_the_german_status_line_agrees_with_how_many_can_no_longer_win():
    status = language.environment("de").get_template("status.html")
    game = {
        "in_play": {"round": 9, "of": 10, "started": False, "dealer": "Ben", "hand_size": 9},
        "contenders": ["Anna", "Ben"],
        "winners": [],
    }
    one = status.render(game=game | {"out": ["Cara"]}).strip()
    two = status.render(game=game | {"out": ["Cara", "Dan"]}).strip()
    assert one == "Als Nächstes Runde 9 von 10: Ben gibt 9 — Cara kann nicht mehr gewinnen"
    assert (
        two == "Als Nächstes Runde 9 von 10: Ben gibt 9 — Cara und Dan können nicht mehr gewinnen"
    )


# --- the game night's pages (wizard serve DIR) ---------------------------------------------


def night(folder: Path) -> Path:
    """A folder reaching every status of the list (each round's bidder, tricks to enter, one
    winner, a shared win, a sheet that does not read), dated and undated games, a finished
    season for the season page and a game whose seating leaves players out."""
    folder.mkdir()
    (folder / "worked.yaml").write_text(
        WORKED.read_text().replace("players:", "date: 2026-11-27\nplayers:", 1)
    )
    (folder / "progress.yaml").write_text(SHEETS["progress"])
    (folder / "all-bid.yaml").write_text(SHEETS["all-bid"])
    (folder / "shared.yaml").write_text(SHEETS["shared"])
    (folder / "broken.yaml").write_text(SHEETS["broken"])
    (folder / "late.yaml").write_text(LATECOMER.read_text())
    for number, game in enumerate((SAMPLES / "club-season.yaml").read_text().split("\n---\n")):
        (folder / f"club-{number}.yaml").write_text(game)
    return folder


def folder_pages(folder: Path, headers: dict, presets: tuple = ()) -> dict[str, str]:
    from starlette.testclient import TestClient

    from wizard_cli.web.folder import FolderWatch, create_folder_app
    from wizard_cli.web.server import allowed_hosts

    watch = FolderWatch(str(folder), token="t" * 32, poll=0.05)
    app = create_folder_app(watch, allowed_hosts("127.0.0.1", 8000), presets)
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        return {
            path: client.get(path, headers=headers).text
            for path in ("/", "/list", "/season", "/new", "/game/late/", "/game/late/game.svg")
        }


def test_no_english_text_is_left_on_a_german_game_night_page(tmp_path):
    """The list (statuses, dates), the season (figures), New game (each setting's and each
    preset's meaning) and a game's grid: no text a German reader sees is the English page's,
    but for names, figures, the rules' own identifiers and the engine's messages (lang="en")."""
    from wizard_cli.game.compare import preset_catalogue
    from wizard_cli.game.settings import SPECS

    folder = night(tmp_path / "night")
    english = folder_pages(folder, {"Accept-Language": "en"})
    german = folder_pages(folder, {"Accept-Language": "de"})
    sheets = "".join(f"\n{path.stem}\n{path.read_text()}" for path in folder.iterdir())
    kept = {  # what the sheets bring: names, titles, places, file names
        word
        for line in re.findall(r"(?:players|title|place|game): (.*)|^(\S+)$", sheets, re.M)
        for word in NOT_WORDS.sub(" ", re.sub(r"[\[\]{}'\":,]", " ", "".join(line))).split()
    }
    kept |= {"mu", "sigma", "true", "false", "Deutsch", "English", "Ordinal"}  # (German too)
    kept |= {spec.key for spec in SPECS} | set(preset_catalogue(()))
    kept |= {str(option) for spec in SPECS for option in getattr(spec, "options", ()) or ()}
    for path, html in english.items():
        german_texts = set(texts(german[path]))
        for text in texts(html):
            words = NOT_WORDS.sub(" ", text).split()
            if not [word for word in words if word not in kept and word not in names_of(text)]:
                continue  # only names, figures, identifiers and punctuation
            assert text not in german_texts, f"{path}: English on the German page: {text!r}"
    assert len(texts(english["/new"])) > 40 and len(texts(english["/"])) > 20


def names_of(text: str) -> set[str]:
    """The words of a title the sample sheets give a game (`Eva's first four-hander`)."""
    return set(re.findall(r"[\w']+", text)) if "'" in text else set()


def test_the_german_list_says_each_status_and_date_in_german(tmp_path):
    folder = night(tmp_path / "night")
    english = folder_pages(folder, {"Accept-Language": "en"})["/list"]
    german = folder_pages(folder, {"Accept-Language": "de"})["/list"]
    statuses = {
        "Round 7 of 10: Olga to bid": "Runde 7 von 10: Olga sagt an",
        "Round 1 of 20: tricks to enter": "Runde 1 von 20: Stiche eintragen",
        "Ben wins": "Ben gewinnt",
        "Anna and Ben share the win": "Anna und Ben teilen sich den Sieg",
    }
    for said, gesagt in statuses.items():
        assert f'<p class="status">{said}</p>' in english
        assert f'<p class="status">{gesagt}</p>' in german and said not in german
    assert '<span class="when">2026-11-27</span>' in english  # the English list as it was
    assert '<span class="when">27. November 2026</span>' in german and "2026-11-27" not in german
    assert '<span class="when">4. Dezember 2026, Kiel</span>' in german
    # the engine's message is English on both pages, and says so
    problem = '<p class="problem" lang="en">broken.yaml:3: round 1, Anna: bid 9 is more than'
    assert problem in english and problem in german


def test_the_lists_english_status_is_the_cores(tmp_path):
    """The page composes the status from its parts; in English it is the core's text, the one
    ``/games.json`` readers and SPEC §9 know (`Round 7 of 10: Olga to bid`, `Ben wins`)."""
    from wizard_cli.app import game_night
    from wizard_cli.app.batch import SheetRules

    folder = night(tmp_path / "night")
    english = folder_pages(folder, {"Accept-Language": "en"})["/list"]
    rules = SheetRules()
    for entry in game_night.game_files(str(folder)).values():
        summary = game_night.summary(entry, rules)
        if not summary.problems:
            assert summary.progress is not None
            assert summary.status_text == summary.progress.text()
            assert f'<p class="status">{summary.status_text}</p>' in english, entry.name


def test_the_german_season_writes_figures_with_a_decimal_comma(tmp_path):
    folder = night(tmp_path / "night")
    english = folder_pages(folder, {"Accept-Language": "en"})["/season"]
    german = folder_pages(folder, {"Accept-Language": "de"})["/season"]
    cells = re.compile(r"<td>([^<]*)</td>")
    shown, gezeigt = cells.findall(english), cells.findall(german)
    assert len(shown) == len(gezeigt) > 50
    assert any(re.fullmatch(r"\d+\.\d\d", cell) for cell in shown)
    assert any(re.fullmatch(r"\d+\.\d%", cell) for cell in shown)
    assert not any(re.search(r"\d\.\d", cell) for cell in gezeigt)
    for cell, zelle in zip(shown, gezeigt):  # the same figure, in German form
        assert zelle == cell.replace(".", ",").replace("%", "\u00a0%")
    assert any(re.fullmatch(r"\d+,\d\u00a0%", cell) for cell in gezeigt)
    ticks = re.compile(r'<text class="axis"[^>]*text-anchor="end">([^<]*)</text>')
    assert all("." in tick for tick in ticks.findall(english))
    assert ticks.findall(german) == [t.replace(".", ",") for t in ticks.findall(english)]
    labels = re.compile(r'<text x="[\d.]+" y="[\d.]+">(\w+ -?\d+[.,]\d)</text>')
    assert labels.findall(german) == [t.replace(".", ",") for t in labels.findall(english)]
    assert labels.findall(german)


def test_figures_are_rounded_as_the_terminal_rounds_them():
    for value in (2.675, 0.125, -0.74, 100.0, 88.88888, 1234.5):
        assert language.decimal(value, "en") == f"{value:.2f}"
        assert language.decimal(value, "de") == f"{value:.2f}".replace(".", ",")
    for fraction in (0.8889, 0.6845, 1.0, 0.0, 0.33333):
        assert language.percent(fraction, "en") == f"{fraction * 100:.1f}%"
        assert language.percent(fraction, "de") == f"{fraction * 100:.1f}\u00a0%".replace(".", ",")
    assert language.list_date("2026-01-05", "en") == "2026-01-05"
    assert language.list_date("2026-01-05", "de") == "5. Januar 2026"


def test_new_game_gives_each_setting_and_preset_in_german(tmp_path):
    """Each setting's and built-in preset's meaning (the core's English, the catalogue's
    German); a preset of the user's keeps its own text, escaped."""
    from markupsafe import escape

    from wizard_cli.game.compare import BUILT_IN_PRESETS, Preset
    from wizard_cli.game.settings import SPECS

    folder = night(tmp_path / "night")
    own = (Preset("mine", (), "<b>our house</b> rule & 100%", "p.yaml"),)
    english = folder_pages(folder, {"Accept-Language": "en"}, own)["/new"]
    german = folder_pages(folder, {"Accept-Language": "de"}, own)["/new"]
    de = gettext.GNUTranslations(MO.open("rb"))
    meanings = [spec.meaning for spec in SPECS] + [preset.meaning for preset in BUILT_IN_PRESETS]
    for meaning in meanings:
        assert de.gettext(meaning) != meaning, meaning
        assert escape(meaning) in english
        assert escape(de.gettext(meaning)) in german
        assert escape(meaning) not in german
    for page in (english, german):
        assert "mine: &lt;b&gt;our house&lt;/b&gt; rule &amp; 100%</option>" in page


def test_the_pages_mark_exactly_the_cores_meanings_for_the_catalogue():
    """web/rule_texts.py lists the core's texts so that Babel extracts them: the same texts."""
    from wizard_cli.game.compare import BUILT_IN_PRESETS
    from wizard_cli.game.settings import SPECS
    from wizard_cli.web import rule_texts

    assert tuple(spec.meaning for spec in SPECS) == rule_texts.SETTING_MEANINGS
    assert tuple(preset.meaning for preset in BUILT_IN_PRESETS) == rule_texts.PRESET_MEANINGS


def test_a_player_not_seated_is_aus_in_the_german_grid_and_image(tmp_path):
    folder = night(tmp_path / "night")
    english = folder_pages(folder, {"Accept-Language": "en"})
    german = folder_pages(folder, {"Accept-Language": "de"})
    assert english["/game/late/"].count('<span class="bt">out</span>') == 4
    assert german["/game/late/"].count('<span class="bt">aus</span>') == 4
    assert ">out<" not in german["/game/late/"]
    assert english["/game/late/game.svg"].count(">out</text>") == 4
    assert german["/game/late/game.svg"].count(">aus</text>") == 4


def test_the_shared_image_says_the_status_in_the_pages_language(tmp_path):
    import asyncio

    from wizard_cli.app.batch import RuleOptions, inputs
    from wizard_cli.output.game_views import status_line
    from wizard_cli.web.watch import SheetWatch

    folder = night(tmp_path / "night")
    watch = SheetWatch(inputs([str(folder / "late.yaml")], RuleOptions()))
    asyncio.run(watch.refresh())
    english = folder_pages(folder, {"Accept-Language": "en"})["/game/late/game.svg"]
    german = folder_pages(folder, {"Accept-Language": "de"})["/game/late/game.svg"]
    said = status_line(watch.result)
    assert f'<title id="title">Latecomer night: {said}</title>' in english
    assert f'fill="#333333">{said}</text>' in english
    gesagt = "Als Nächstes Runde 6 von 6: Anna gibt 6 — Cara kann nicht mehr gewinnen"
    assert f'fill="#333333">{gesagt}</text>' in german and said not in german


def test_the_game_night_scripts_say_their_sentences_in_the_pages_language(tmp_path):
    """folder.js's messages and its buttons' labels come from the page (data-say-*)."""
    script = (WEB / "static" / "folder.js").read_text()
    assert "Could not reach" not in script and '"Not written' not in script
    assert '"up"' not in script and '"remove"' not in script
    folder = night(tmp_path / "night")
    german = folder_pages(folder, {"Accept-Language": "de"})
    english = folder_pages(folder, {"Accept-Language": "en"})
    for page in ("/", "/new"):
        assert (
            'data-say-unreachable="Der Server ist nicht erreichbar: nichts wurde geschrieben."'
            in (german[page])
        )
        assert 'data-say-not-written="Nicht geschrieben: {reason}"' in german[page]
        assert 'data-say-not-written="Not written: {reason}"' in english[page]
    assert 'data-say-up="nach oben: {name}"' in german["/new"]
    assert 'data-say-remove="remove: {name}"' in english["/new"]
