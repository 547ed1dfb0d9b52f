"""Settings (SPEC §2): names, defaults, ranges, how text and YAML are read, precedence, errors."""

from __future__ import annotations

import json

import pytest
from helpers import WORKED, run

from wizard_cli.game.settings import (
    KEYS,
    SPEC_BY_KEY,
    RawSetting,
    Settings,
    parse_assignment,
    resolve,
)

# key: (default, kind, minimum, maximum, step, options) exactly as SPEC §2's table.
TABLE = {
    "roundMode": ("wholeDeck", "option", None, None, None, ("wholeDeck", "custom", "quickPlay")),
    "customRoundCount": (10, "int", 1, 20, 1, None),
    "exactBonus": (20, "int", 0, 50, 5, None),
    "pointsPerTrick": (10, "int", 0, 20, 5, None),
    "missPenalty": (10, "int", 0, 30, 5, None),
    "zeroBidScoring": (
        "flatBonus",
        "option",
        None,
        None,
        None,
        ("flatBonus", "doubleBonus", "perCardBonus"),
    ),
    "screwTheDealer": (
        "off",
        "option",
        None,
        None,
        None,
        ("off", "always", "leaderOnly", "unlessTiedLead"),
    ),
    "canadianRule": (False, "bool", None, None, None, None),
    "dealerRuleFrom": (1, "int", 1, 20, 1, None),
    "bidding": ("open", "option", None, None, None, ("open", "hidden", "delayed")),
    "perfectGameBonus": (0, "int", 0, 100, 10, None),
    "tieBreak": ("shareWin", "option", None, None, None, ("shareWin", "totalBids", "madeBids")),
    "finalRoundBonus": (0, "int", 0, 50, 5, None),
    "balancedBidPenalty": (0, "int", 0, 30, 5, None),
    "specialCards": (False, "bool", None, None, None, None),
}
INTS = [key for key, row in TABLE.items() if row[1] == "int"]
OPTIONS = [key for key, row in TABLE.items() if row[1] == "option"]


def typed(key: str, value, line: int = 3) -> RawSetting:
    """A setting as a YAML sheet would hold it."""
    return RawSetting(key, value, "s.yaml", line)


def text(assignment: str) -> RawSetting:
    """A setting as ``--set KEY=VALUE`` gives it."""
    return parse_assignment(assignment)


def effective(*layers, players: int | None = 4) -> dict:
    """(settings as a dict, problem lines) after resolving the layers."""
    resolved = resolve(layers, players)
    return resolved.settings.as_dict(), [str(p) for p in resolved.problems]


# --- the table ----------------------------------------------------------------------------


def test_exactly_the_keys_of_the_spec_in_its_order():
    assert tuple(TABLE) == KEYS
    assert tuple(Settings().as_dict()) == tuple(TABLE)


@pytest.mark.parametrize("key", list(TABLE))
def test_every_key_has_the_spec_default_kind_and_range(key):
    default, kind, minimum, maximum, step, options = TABLE[key]
    spec = SPEC_BY_KEY[key]
    assert (spec.default, spec.kind) == (default, kind)
    assert Settings().as_dict()[key] == default
    if kind == "int":
        assert (spec.minimum, spec.maximum, spec.step) == (minimum, maximum, step)
    if kind == "option":
        assert spec.options == options


@pytest.mark.parametrize("key", INTS)
def test_every_step_of_every_range_is_allowed_and_nothing_else(key):
    _, _, minimum, maximum, step, _ = TABLE[key]
    for value in range(minimum, maximum + 1, step):
        assert effective([typed(key, value)])[0][key] == value
        assert effective([text(f"{key}={value}")])[0][key] == value
    for value in (
        minimum - 1,
        maximum + 1,
        maximum + step,
        minimum + step // 2 if step > 1 else -5,
    ):
        settings, problems = effective([typed(key, value)])
        assert settings[key] == TABLE[key][0]  # a bad value falls back
        assert problems == [
            f"s.yaml:3: setting {key}: {value} is not allowed "
            f"(allowed: {minimum}–{maximum} in steps of {step})"
        ]


@pytest.mark.parametrize("key", OPTIONS)
def test_every_option_is_accepted_as_written(key):
    for option in TABLE[key][5]:
        values = [typed(key, option)] + (
            [typed("bidding", "open")] if key == "screwTheDealer" else []
        )
        assert effective(values)[0][key] == option
        assert effective([text(f"{key}={option}")])[0][key] == option


def test_an_unknown_option_lists_the_allowed_ones_and_suggests():
    assert effective([typed("zeroBidScoring", "double")])[1] == [
        "s.yaml:3: setting zeroBidScoring: 'double' is not an option (allowed: flatBonus, "
        "doubleBonus, perCardBonus) (did you mean 'doubleBonus'?)"
    ]
    assert effective([text("tieBreak=coinFlip")])[1] == [
        "--set tieBreak=coinFlip: 'coinFlip' is not an option (allowed: shareWin, totalBids, "
        "madeBids)"
    ]


# --- --set text ---------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "expected"), [("25", 25), ("025", 25), ("+30", 30), (" 5 ", 5)])
def test_set_reads_decimal_whole_numbers(value, expected):
    assert effective([text(f"exactBonus={value}")])[0]["exactBonus"] == expected


@pytest.mark.parametrize("value", ["0x10", "2e1", "20.0", "twenty", "", "1_0"])
def test_set_refuses_anything_else_for_a_number(value):
    assert effective([text(f"exactBonus={value}")])[1] == [
        f"--set exactBonus={value}: '{value}' is not a whole number (allowed: 0–50 in steps of 5)"
    ]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("true", True),
        ("yes", True),
        ("on", True),
        ("TRUE", True),
        ("Yes", True),
        ("false", False),
        ("no", False),
        ("off", False),
        ("Off", False),
    ],
)
def test_set_reads_flag_words(value, expected):
    assert effective([text(f"canadianRule={value}")])[0]["canadianRule"] is expected


def test_set_refuses_other_flag_words():
    assert effective([text("canadianRule=1")])[1] == [
        "--set canadianRule=1: '1' is not true or false"
    ]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("false", "off"),
        ("true", "always"),
        ("on", "always"),
        ("off", "off"),
        ("leaderOnly", "leaderOnly"),
        ("unlessTiedLead", "unlessTiedLead"),
    ],
)
def test_screw_the_dealer_accepts_its_aliases(value, expected):
    assert effective([text(f"screwTheDealer={value}")])[0]["screwTheDealer"] == expected


def test_option_names_are_case_sensitive_with_a_suggestion():
    assert effective([text("roundMode=quickplay")])[1] == [
        "--set roundMode=quickplay: 'quickplay' is not an option (allowed: wholeDeck, custom, "
        "quickPlay) (did you mean 'quickPlay'?)"
    ]


# --- YAML types ---------------------------------------------------------------------------


def test_yaml_values_must_already_have_the_settings_type():
    _, problems = effective(
        [
            typed("exactBonus", "20", 4),
            typed("canadianRule", "yes", 5),
            typed("roundMode", 3, 6),
            typed("missPenalty", True, 7),
            typed("pointsPerTrick", 2.5, 8),
        ]
    )
    assert problems == [
        "s.yaml:4: setting exactBonus: '20' is not a whole number (allowed: 0–50 in steps of 5)",
        "s.yaml:5: setting canadianRule: 'yes' is not true or false",
        "s.yaml:6: setting roundMode: '3' is not an option (allowed: wholeDeck, custom, quickPlay)",
        "s.yaml:7: setting missPenalty: 'true' is not a whole number (allowed: 0–30 in steps of 5)",
        "s.yaml:8: setting pointsPerTrick: '2.5' is not a whole number "
        "(allowed: 0–20 in steps of 5)",
    ]


def test_yaml_on_off_are_accepted_for_flags_and_screw_the_dealer(write):
    sheet = write(
        "onoff.yaml",
        "players: [A, B, C]\nsettings:\n  canadianRule: on\n  screwTheDealer: on\nrounds: []\n",
    )
    data = json.loads(run("score", sheet, "-f", "json").stdout)
    assert (data["settings"]["canadianRule"], data["settings"]["screwTheDealer"]) == (
        True,
        "always",
    )
    off = write(
        "off.yaml",
        "players: [A, B, C]\nsettings:\n  canadianRule: off\n  screwTheDealer: off\nrounds: []\n",
    )
    data = json.loads(run("score", off, "-f", "json").stdout)
    assert (data["settings"]["canadianRule"], data["settings"]["screwTheDealer"]) == (False, "off")


def test_a_quoted_number_in_a_sheet_is_an_error_with_its_line(write):
    sheet = write("q.yaml", 'players: [A, B, C]\nsettings:\n  exactBonus: "20"\nrounds: []\n')
    result = run("check", sheet)
    assert result.exit_code == 1
    assert result.stderr == (
        f"{sheet}:3: setting exactBonus: '20' is not a whole number (allowed: 0–50 in steps of 5)\n"
    )


# --- unknown keys -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "closest"),
    [
        ("exactbonus", "exactBonus"),
        ("zeroBidScore", "zeroBidScoring"),
        ("screwDealer", "screwTheDealer"),
        ("canadian", "canadianRule"),
        ("tiebreak", "tieBreak"),
    ],
)
def test_an_unknown_key_suggests_the_closest(key, closest):
    assert effective([typed(key, 1)])[1] == [
        f"s.yaml:3: unknown setting '{key}' (did you mean '{closest}'?)"
    ]
    assert effective([text(f"{key}=1")])[1] == [
        f"--set {key}=1: unknown setting '{key}' (did you mean '{closest}'?)"
    ]


def test_an_unknown_key_without_a_near_name_has_no_suggestion():
    assert effective([typed("colour", "red")])[1] == ["s.yaml:3: unknown setting 'colour'"]


# --- combinations -------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "most"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_custom_round_count_is_bounded_by_the_deck_only_under_custom(players, most):
    ok, problems = effective(
        [typed("roundMode", "custom"), typed("customRoundCount", most)], players=players
    )
    assert (ok["customRoundCount"], problems) == (most, [])
    if most < 20:
        _, problems = effective(
            [typed("roundMode", "custom"), typed("customRoundCount", most + 1, 4)], players=players
        )
        assert problems == [
            f"s.yaml:4: customRoundCount {most + 1} is more rounds than "
            f"{players} players can be dealt (at most {most})"
        ]
    for mode in ("wholeDeck", "quickPlay"):
        assert (
            effective([typed("roundMode", mode), typed("customRoundCount", 20)], players=players)[1]
            == []
        )


def test_custom_round_count_is_always_checked_for_type_and_range():
    assert effective([typed("customRoundCount", 21)], players=6)[1] == [
        "s.yaml:3: setting customRoundCount: 21 is not allowed (allowed: 1–20 in steps of 1)"
    ]
    assert effective([typed("customRoundCount", 0)])[1] == [
        "s.yaml:3: setting customRoundCount: 0 is not allowed (allowed: 1–20 in steps of 1)"
    ]


@pytest.mark.parametrize("bidding", ["hidden", "delayed"])
@pytest.mark.parametrize("mode", ["always", "leaderOnly", "unlessTiedLead"])
def test_hidden_or_delayed_bids_rule_out_a_dealer_restriction(bidding, mode):
    settings, problems = effective([typed("bidding", bidding, 3), typed("screwTheDealer", mode, 4)])
    assert problems == [
        f"s.yaml:4: screwTheDealer={mode} needs open bids, but bidding is "
        f"{bidding} (a dealer restriction makes no sense with hidden bids)"
    ]
    assert effective([typed("bidding", bidding), typed("screwTheDealer", "off")])[1] == []


# --- precedence through the CLI -------------------------------------------------------------


def settings_of(*args) -> dict:
    result = run("score", *args, "-f", "json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)["settings"]


def test_precedence_defaults_sheet_file_set(write):
    sheet = write(
        "p.yaml",
        "players: [A, B, C]\nsettings:\n  exactBonus: 30\n  missPenalty: 5\n"
        "  pointsPerTrick: 5\nrounds: []\n",
    )
    plain = write("rules.yaml", "exactBonus: 40\nmissPenalty: 15\n")
    assert settings_of(sheet)["exactBonus"] == 30
    assert settings_of(sheet)["finalRoundBonus"] == 0
    from_file = settings_of(sheet, "--settings", plain)
    assert (from_file["exactBonus"], from_file["missPenalty"], from_file["pointsPerTrick"]) == (
        40,
        15,
        5,
    )
    from_set = settings_of(sheet, "--settings", plain, "--set", "exactBonus=50")
    assert (from_set["exactBonus"], from_set["missPenalty"], from_set["pointsPerTrick"]) == (
        50,
        15,
        5,
    )
    assert settings_of(sheet, "--set", "exactBonus=10", "--set", "exactBonus=0")["exactBonus"] == 0


def test_a_sheet_shaped_settings_file_gives_its_settings_block(write):
    shaped = write(
        "other.yaml",
        "title: Other\nplayers: [X, Y, Z]\nsettings:\n  zeroBidScoring: perCardBonus\nrounds: []\n",
    )
    assert settings_of(WORKED, "--settings", shaped)["zeroBidScoring"] == "perCardBonus"
    assert settings_of(WORKED, "--settings", shaped)["roundMode"] == "custom"  # from the sheet
    bare = write("bare.yaml", "title: No rules\nplayers: [X, Y, Z]\nrounds: []\n")
    assert settings_of(WORKED, "--settings", bare) == settings_of(WORKED)


def test_zero_bid_is_the_same_as_setting_zero_bid_scoring(write):
    assert settings_of(WORKED, "--zero-bid", "doubleBonus")["zeroBidScoring"] == "doubleBonus"
    rules_file = write("r.yaml", "zeroBidScoring: perCardBonus\n")
    assert (
        settings_of(WORKED, "--settings", rules_file, "--zero-bid", "doubleBonus")["zeroBidScoring"]
        == "doubleBonus"
    )


def test_settings_apply_to_a_csv(write):
    rules_file = write("r.yaml", "roundMode: custom\ncustomRoundCount: 5\n")
    csv = str(WORKED).replace("worked-example.yaml", "worked-example-long.csv")
    data = json.loads(run("score", csv, "--settings", rules_file, "-f", "json").stdout)
    assert data["status"]["finished"] is True and data["status"]["roundsTotal"] == 5


# --- errors and exit codes through the CLI ----------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--set", "exactBonus=7"],
            "--set exactBonus=7: 7 is not allowed (allowed: 0–50 in steps of 5)",
        ),
        (
            ["--set", "exactBonus=lots"],
            "--set exactBonus=lots: 'lots' is not a whole number (allowed: 0–50 in steps of 5)",
        ),
        (
            ["--set", "exactbonus=20"],
            "--set exactbonus=20: unknown setting 'exactbonus' (did you mean 'exactBonus'?)",
        ),
        (["--set", "canadianRule=maybe"], "--set canadianRule=maybe: 'maybe' is not true or false"),
        (
            ["--zero-bid", "triple"],
            "--set zeroBidScoring=triple: 'triple' is not an option "
            "(allowed: flatBonus, doubleBonus, perCardBonus)",
        ),
        (
            ["--set", "bidding=hidden", "--set", "screwTheDealer=always"],
            "--set screwTheDealer=always: screwTheDealer=always needs open bids, but bidding is hidden "
            "(a dealer restriction makes no sense with hidden bids)",
        ),
    ],
)
@pytest.mark.parametrize("command", ["score", "standings", "check", "next"])
def test_a_bad_setting_on_the_command_line_exits_1_naming_the_key(command, args, message):
    result = run(command, WORKED, *args)
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", message + "\n")


def test_a_bad_value_in_a_settings_file_is_located_there(write):
    rules_file = write("r.yaml", "exactBonus: 20\nmissPenalty: 12\n")
    result = run("score", WORKED, "--settings", rules_file)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"{rules_file}:2: setting missPenalty: 12 is not allowed (allowed: 0–30 in steps of 5)\n"
    )


def test_a_custom_round_count_too_big_for_one_sheet_names_that_sheet(write):
    six = str(WORKED).replace("worked-example.yaml", "six-players-in-progress.yaml")
    result = run("check", WORKED, six, "--set", "roundMode=custom", "--set", "customRoundCount=12")
    assert result.exit_code == 1
    assert result.stdout == f"{WORKED}: ok\n{six}: 1 problem\n"
    assert result.stderr == (
        f"{six}: --set customRoundCount=12: customRoundCount 12 is more "
        "rounds than 6 players can be dealt (at most 10)\n"
    )


def test_usage_errors_exit_2(tmp_path):
    assert run("score", WORKED, "--bogus").exit_code == 2
    assert run("score", WORKED, "--format", "xml").exit_code == 2
    missing = run("score", WORKED, "--settings", tmp_path / "nope.yaml")
    assert missing.exit_code == 2 and "no such file" in missing.stderr
    assert "--settings" in missing.stderr and "Traceback" not in missing.stderr
    gone = run("score", tmp_path / "gone.yaml")
    assert gone.exit_code == 2 and f"no such file: {tmp_path / 'gone.yaml'}" in gone.stderr
    folder = run("check", tmp_path)
    assert folder.exit_code == 2 and f"not a file: {tmp_path}" in folder.stderr
    assert run("score", WORKED, "--encoding", "klingon").exit_code == 2
    assert run("score", WORKED, "--input-format", "xml").exit_code == 2
    assert run("score").exit_code == 2
    assert run("next", WORKED, WORKED).exit_code == 2
    assert run("score", WORKED, "--set").exit_code == 2


def test_the_settings_fields_are_the_specs_keys_with_their_defaults():
    """One table of settings (SPECS) and one dataclass (Settings) say the same: checked here,
    not at every start (issue 20)."""
    from dataclasses import fields

    from wizard_cli.game.settings import ATTRIBUTES, DEFAULTS, KEYS, SPECS, Settings

    assert tuple(ATTRIBUTES[key] for key in KEYS) == tuple(f.name for f in fields(Settings))
    assert Settings.from_mapping({spec.key: spec.default for spec in SPECS}) == DEFAULTS
    assert list(DEFAULTS.as_dict()) == list(KEYS)
