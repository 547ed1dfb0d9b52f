"""score, standings, check and next through the CLI (SPEC §5): every format, exact text and keys."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import DEALER_TO_BID, SAMPLES, WORKED, run

from wizard_cli import __version__

SIX = SAMPLES / "six-players-in-progress.yaml"
LONG = SAMPLES / "worked-example-long.csv"
PLAYERS = ["Anna", "Ben", "Cara", "Dan"]
# SPEC §6, cell by cell: (bid, tricks, points) per player, rounds 1–5.
SPEC_ROUNDS = [
    [(1, 1, 30), (0, 0, 20), (0, 0, 20), (1, 0, -10)],
    [(1, 0, -10), (1, 1, 30), (0, 1, -10), (2, 0, -20)],
    [(2, 2, 40), (0, 0, 20), (1, 1, 30), (1, 0, -10)],
    [(1, 2, -10), (2, 2, 40), (0, 0, 20), (1, 0, -10)],
    [(2, 2, 40), (1, 1, 30), (3, 1, -20), (0, 1, -10)],
]
SETTINGS = {
    "roundMode": "custom",
    "customRoundCount": 5,
    "exactBonus": 20,
    "pointsPerTrick": 10,
    "missPenalty": 10,
    "zeroBidScoring": "flatBonus",
    "screwTheDealer": "off",
    "canadianRule": False,
    "dealerRuleFrom": 1,
    "bidding": "open",
    "perfectGameBonus": 0,
    "tieBreak": "shareWin",
    "finalRoundBonus": 0,
    "balancedBidPenalty": 0,
    "specialCards": False,
}
STANDINGS = [
    {"rank": 1, "player": "Ben", "score": 140, "bonus": 0},
    {"rank": 2, "player": "Anna", "score": 90, "bonus": 0},
    {"rank": 3, "player": "Cara", "score": 40, "bonus": 0},
    {"rank": 4, "player": "Dan", "score": -60, "bonus": 0},
]
FINISHED = {
    "finished": True,
    "roundsPlayed": 5,
    "roundsTotal": 5,
    "winners": ["Ben"],
    "contenders": ["Ben"],
    "next": None,
}


def spec_rounds() -> list[dict]:
    """``rounds`` of SPEC §5's JSON, built from the SPEC §6 table with running totals."""
    totals = [0, 0, 0, 0]
    rounds = []
    for number, cells in enumerate(SPEC_ROUNDS, start=1):
        results = {}
        for seat, (bid, tricks, points) in enumerate(cells):
            totals[seat] += points
            results[PLAYERS[seat]] = {
                "bid": bid,
                "tricks": tricks,
                "points": points,
                "total": totals[seat],
            }
        rounds.append(
            {
                "round": number,
                "handSize": number,
                "dealer": PLAYERS[(number - 1) % 4],
                "results": results,
            }
        )
    return rounds


WORKED_JSON = {
    "source": str(WORKED),
    "game": None,
    "title": "Worked example",
    "date": None,
    "place": None,
    "notes": None,
    "players": PLAYERS,
    "settings": SETTINGS,
    "rounds": spec_rounds(),
    "standings": STANDINGS,
    "status": FINISHED,
}


def ok(*args, input=None):
    """Run a command that must succeed with nothing on stderr; its stdout."""
    result = run(*args, input=input)
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    return result.stdout


# --- score ------------------------------------------------------------------------------------

SCORE_TABLE = f"""\
Worked example ({WORKED})

  Round    Cards  Dealer              Anna              Ben            Cara              Dan
-------  -------  --------  --------------  ---------------  --------------  ---------------
      1        1  Anna      1/1 → +30 = 30   0/0 → +20 = 20  0/0 → +20 = 20  1/0 → -10 = -10
      2        2  Ben       1/0 → -10 = 20   1/1 → +30 = 50  0/1 → -10 = 10  2/0 → -20 = -30
      3        3  Cara      2/2 → +40 = 60   0/0 → +20 = 70  1/1 → +30 = 40  1/0 → -10 = -40
      4        4  Dan       1/2 → -10 = 50  2/2 → +40 = 110  0/0 → +20 = 60  1/0 → -10 = -50
      5        5  Anna      2/2 → +40 = 90  1/1 → +30 = 140  3/1 → -20 = 40  0/1 → -10 = -60
  Total                                 90              140              40              -60

  Rank  Player      Score
------  --------  -------
     1  Ben           140
     2  Anna           90
     3  Cara           40
     4  Dan           -60

Game over — Ben wins
"""

SCORE_MARKDOWN = f"""\
## Worked example ({WORKED})

|   Round |   Cards | Dealer   |           Anna |             Ben |           Cara |             Dan |
|---------|---------|----------|----------------|-----------------|----------------|-----------------|
|       1 |       1 | Anna     | 1/1 → +30 = 30 |  0/0 → +20 = 20 | 0/0 → +20 = 20 | 1/0 → -10 = -10 |
|       2 |       2 | Ben      | 1/0 → -10 = 20 |  1/1 → +30 = 50 | 0/1 → -10 = 10 | 2/0 → -20 = -30 |
|       3 |       3 | Cara     | 2/2 → +40 = 60 |  0/0 → +20 = 70 | 1/1 → +30 = 40 | 1/0 → -10 = -40 |
|       4 |       4 | Dan      | 1/2 → -10 = 50 | 2/2 → +40 = 110 | 0/0 → +20 = 60 | 1/0 → -10 = -50 |
|       5 |       5 | Anna     | 2/2 → +40 = 90 | 1/1 → +30 = 140 | 3/1 → -20 = 40 | 0/1 → -10 = -60 |
|   Total |         |          |             90 |             140 |             40 |             -60 |

|   Rank | Player   |   Score |
|--------|----------|---------|
|      1 | Ben      |     140 |
|      2 | Anna     |      90 |
|      3 | Cara     |      40 |
|      4 | Dan      |     -60 |

Game over — Ben wins
"""


def long_rows(delimiter: str) -> str:
    rows = ["round,player,bid,tricks,points,total"]
    for r in spec_rounds():
        for name, cell in r["results"].items():
            rows.append(
                f"{r['round']},{name},{cell['bid']},{cell['tricks']},{cell['points']},"
                f"{cell['total']}"
            )
    return "".join(row.replace(",", delimiter) + "\n" for row in rows)


def test_score_table():
    assert ok("score", WORKED) == SCORE_TABLE
    assert ok("score", WORKED, "-f", "table") == SCORE_TABLE


def test_score_markdown():
    assert ok("score", WORKED, "--format", "markdown") == SCORE_MARKDOWN


@pytest.mark.parametrize(("fmt", "delimiter"), [("csv", ","), ("tsv", "\t")])
def test_score_csv_and_tsv_are_the_tidy_long_form(fmt, delimiter):
    assert ok("score", WORKED, "-f", fmt) == long_rows(delimiter)


def test_score_json_is_exactly_the_spec_shape():
    text = ok("score", WORKED, "-f", "json")
    data = json.loads(text)
    assert data == WORKED_JSON
    assert list(data) == [
        "source",
        "game",
        "title",
        "date",
        "place",
        "notes",
        "players",
        "settings",
        "rounds",
        "standings",
        "status",
    ]
    assert list(data["settings"]) == list(SETTINGS)
    assert list(data["rounds"][0]) == ["round", "handSize", "dealer", "results"]
    assert list(data["rounds"][0]["results"]["Anna"]) == ["bid", "tricks", "points", "total"]
    assert list(data["status"]) == [
        "finished",
        "roundsPlayed",
        "roundsTotal",
        "winners",
        "contenders",
        "next",
    ]
    assert text.endswith("}\n")


def test_score_jsonl_is_one_compact_line():
    text = ok("score", WORKED, "-f", "jsonl")
    assert text.count("\n") == 1 and text.endswith("\n")
    assert json.loads(text) == WORKED_JSON


def test_score_zero_bid_double_bonus_moves_only_made_zeros():
    data = json.loads(ok("score", WORKED, "--zero-bid", "doubleBonus", "-f", "json"))
    assert [(s["player"], s["score"]) for s in data["standings"]] == [
        ("Ben", 180),
        ("Anna", 90),
        ("Cara", 80),
        ("Dan", -60),
    ]
    assert data["settings"]["zeroBidScoring"] == "doubleBonus"


def test_the_round_in_play_has_null_tricks_points_and_total():
    data = json.loads(ok("score", SIX, "-f", "json"))
    last = data["rounds"][-1]
    assert (last["round"], last["handSize"], last["dealer"]) == (7, 7, "Rosa")
    assert last["results"]["Mia"] == {"bid": 3, "tricks": None, "points": None, "total": None}
    assert last["results"]["Olga"] == {"bid": None, "tricks": None, "points": None, "total": None}
    assert data["status"] == {
        "finished": False,
        "roundsPlayed": 6,
        "roundsTotal": 10,
        "winners": [],
        "contenders": ["Mia", "Noah", "Olga", "Pete", "Quinn", "Rosa"],
        "next": {
            "round": 7,
            "handSize": 7,
            "dealer": "Rosa",
            "biddingOrder": ["Mia", "Noah", "Olga", "Pete", "Quinn", "Rosa"],
            "bidsIn": {"Mia": 3, "Noah": 1},
            "bidTotal": 4,
            "nextBidder": "Olga",
            "noTrump": False,
            "forbiddenDealerBid": None,
            "finished": False,
        },
    }
    rows = ok("score", SIX, "-f", "csv").splitlines()
    assert rows[-6:] == [
        "7,Mia,3,,,",
        "7,Noah,1,,,",
        "7,Olga,,,,",
        "7,Pete,,,,",
        "7,Quinn,,,,",
        "7,Rosa,,,,",
    ]


def test_the_in_play_table_cells_and_status():
    text = ok("score", SIX)
    assert "      7        7  Rosa                  3/?              1/?                ?" in text
    assert text.endswith("\n\nRound 7 of 10 in play: Olga to bid\n")


@pytest.mark.parametrize(
    ("content", "status"),
    [
        ("players: [A, B, C]\nrounds: []\n", "Round 1 of 20 next: A deals 1"),
        (
            "players: [A, B, C]\nrounds:\n  - bids: [0, 0, 0]\n    tricks: [1, 0, 0]\n",
            "Round 2 of 20 next: B deals 2",
        ),
        (
            "players: [A, B, C]\nrounds:\n  - bids: [0, 0, 0]\n",
            "Round 1 of 20 in play: all bids in, waiting for the tricks",
        ),
        (
            "players: [A, B, C]\nsettings: {screwTheDealer: always}\nrounds:\n  - bids: [null, 1, 1]\n",
            "Round 1 of 20 in play: A to bid",
        ),
        (DEALER_TO_BID.read_text(), "Round 1 of 20 in play: A to bid (may not bid 1)"),
        (
            "players: [A, B, C]\nsettings: {roundMode: custom, customRoundCount: 1}\nrounds:\n"
            "  - bids: [0, 0, 0]\n    tricks: [1, 0, 0]\n",
            "Game over — B and C share the win",
        ),
    ],
)
def test_status_lines(write, content, status):
    path = write("s.yaml", content)
    assert ok("score", path).endswith(f"\n\n{status}\n")
    assert ok("standings", path).endswith(f"\n\n{status}\n")


def test_a_sheet_with_no_rounds(write):
    path = write("empty.yaml", "players: [A, B, C]\nrounds: []\n")
    assert ok("score", path) == (
        f"{path}\n\n"
        "  Round    Cards  Dealer      A    B    C\n"
        "-------  -------  --------  ---  ---  ---\n"
        "  Total                       0    0    0\n\n"
        "  Rank  Player      Score\n"
        "------  --------  -------\n"
        "     1  A               0\n"
        "     1  B               0\n"
        "     1  C               0\n\n"
        "Round 1 of 20 next: A deals 1\n"
    )
    data = json.loads(ok("score", path, "-f", "json"))
    assert data["rounds"] == [] and data["title"] is None
    assert [s["rank"] for s in data["standings"]] == [1, 1, 1]
    assert ok("score", path, "-f", "csv") == "round,player,bid,tricks,points,total\n"


def test_a_bonus_column_appears_only_with_a_bonus(write):
    path = write(
        "p.yaml",
        "players: [A, B, C]\nsettings: {roundMode: custom, customRoundCount: 1,"
        " perfectGameBonus: 50}\nrounds:\n  - bids: [1, 0, 1]\n"
        "    tricks: [1, 0, 0]\n",
    )
    data = json.loads(ok("standings", path, "-f", "json"))
    assert data["standings"] == [
        {"rank": 1, "player": "A", "score": 80, "bonus": 50},
        {"rank": 2, "player": "B", "score": 70, "bonus": 50},
        {"rank": 3, "player": "C", "score": -10, "bonus": 0},
    ]
    assert ok("standings", path) == f"{path}\n\n" + "".join(
        line + "\n"
        for line in [
            "  Rank  Player      Score    Bonus",
            "------  --------  -------  -------",
            "     1  A              80       50",
            "     2  B              70       50",
            "     3  C             -10        0",
            "",
            "Game over — A wins",
        ]
    )
    assert "Bonus" not in ok("standings", WORKED)


# --- several sheets -------------------------------------------------------------------------


def test_several_sheets_make_a_json_array_and_jsonl_lines():
    data = json.loads(ok("score", WORKED, SIX, "-f", "json"))
    assert isinstance(data, list) and [d["source"] for d in data] == [str(WORKED), str(SIX)]
    assert data[0] == WORKED_JSON
    lines = ok("standings", WORKED, SIX, "-f", "jsonl").splitlines()
    assert [json.loads(line)["source"] for line in lines] == [str(WORKED), str(SIX)]


def test_a_season_csv_gives_one_result_per_game():
    season = SAMPLES / "season.csv"
    data = json.loads(ok("standings", season, "-f", "json"))
    assert [(d["source"], d["game"]) for d in data] == [
        (str(season), "2026-01-09"),
        (str(season), "2026-01-16"),
        (str(season), "2026-01-23"),
    ]
    assert list(data[0]) == [
        "source",
        "game",
        "title",
        "date",
        "place",
        "notes",
        "standings",
        "status",
    ]
    rows = ok("standings", season, "-f", "csv").splitlines()
    assert rows[:3] == [
        "source,game,rank,player,score,bonus",
        f"{season},2026-01-09,1,Cara,440,0",
        f"{season},2026-01-09,2,Dan,370,0",
    ]
    assert len(rows) == 1 + 3 * 4


def test_several_sheets_in_table_form_are_separated_by_a_blank_line():
    text = ok("standings", WORKED, WORKED)
    one = ok("standings", WORKED)
    assert text == one + "\n" + one


# --- standings ---------------------------------------------------------------------------

STANDINGS_TABLE = f"""\
Worked example ({WORKED})

  Rank  Player      Score
------  --------  -------
     1  Ben           140
     2  Anna           90
     3  Cara           40
     4  Dan           -60

Game over — Ben wins
"""


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        ("table", STANDINGS_TABLE),
        (
            "markdown",
            f"""\
## Worked example ({WORKED})

|   Rank | Player   |   Score |
|--------|----------|---------|
|      1 | Ben      |     140 |
|      2 | Anna     |      90 |
|      3 | Cara     |      40 |
|      4 | Dan      |     -60 |

Game over — Ben wins
""",
        ),
        ("csv", "rank,player,score,bonus\n1,Ben,140,0\n2,Anna,90,0\n3,Cara,40,0\n4,Dan,-60,0\n"),
        (
            "tsv",
            "rank\tplayer\tscore\tbonus\n1\tBen\t140\t0\n2\tAnna\t90\t0\n3\tCara\t40\t0\n"
            "4\tDan\t-60\t0\n",
        ),
    ],
)
def test_standings_text_formats(fmt, expected):
    assert ok("standings", WORKED, "-f", fmt) == expected


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_standings_json(fmt):
    data = json.loads(ok("standings", WORKED, "-f", fmt))
    assert data == {
        "source": str(WORKED),
        "game": None,
        "title": "Worked example",
        "date": None,
        "place": None,
        "notes": None,
        "standings": STANDINGS,
        "status": FINISHED,
    }
    assert list(data) == [
        "source",
        "game",
        "title",
        "date",
        "place",
        "notes",
        "standings",
        "status",
    ]


def test_all_three_inputs_agree_on_standings():
    custom = ("--set", "roundMode=custom", "--set", "customRoundCount=5")
    texts = [
        ok("standings", SAMPLES / name, *custom, "-f", "csv")
        for name in ("worked-example.yaml", "worked-example-long.csv", "worked-example-wide.csv")
    ]
    assert texts[0] == texts[1] == texts[2]


# --- check --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        ("table", f"{WORKED}: ok\n"),
        ("markdown", f"{WORKED}: ok\n"),
        ("csv", "valid,line,round,player,message\ntrue,,,,ok\n"),
        ("tsv", "valid\tline\tround\tplayer\tmessage\ntrue\t\t\t\tok\n"),
        (
            "jsonl",
            json.dumps(
                {"source": str(WORKED), "game": None, "valid": True, "problems": []},
                separators=(",", ":"),
            )
            + "\n",
        ),
    ],
)
def test_check_a_valid_sheet(fmt, expected):
    assert ok("check", WORKED, "-f", fmt) == expected


def test_check_json_shape(write):
    assert json.loads(ok("check", WORKED, "-f", "json")) == {
        "source": str(WORKED),
        "game": None,
        "valid": True,
        "problems": [],
    }
    bad = write(
        "bad.yaml", "players: [A, B, C]\nrounds:\n  - bids: [1, 0, x]\n    tricks: [1, 0, 0]\n"
    )
    result = run("check", WORKED, bad, "-f", "json")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == [
        {"source": str(WORKED), "game": None, "valid": True, "problems": []},
        {
            "source": str(bad),
            "game": None,
            "valid": False,
            "problems": [
                {"line": 3, "round": 1, "player": "C", "message": "bid 'x' is not a whole number"}
            ],
        },
    ]
    assert result.stderr == f"{bad}:3: round 1, C: bid 'x' is not a whole number\n"
    result = run("check", bad, "-f", "csv")
    assert result.stdout == (
        "valid,line,round,player,message\nfalse,3,1,C,bid 'x' is not a whole number\n"
    )


def test_check_a_season():
    season = SAMPLES / "season.csv"
    assert ok("check", season) == "".join(
        f"{season}, game {game}: ok\n" for game in ("2026-01-09", "2026-01-16", "2026-01-23")
    )
    rows = ok("check", season, "-f", "csv").splitlines()
    assert rows == [
        "source,game,valid,line,round,player,message",
        f"{season},2026-01-09,true,,,,ok",
        f"{season},2026-01-16,true,,,,ok",
        f"{season},2026-01-23,true,,,,ok",
    ]


def test_check_the_broken_sample_lists_every_problem():
    broken = SAMPLES / "friday-broken.yaml"
    result = run("check", broken)
    assert result.exit_code == 1
    assert result.stdout == f"{broken}: 8 problems\n"
    assert result.stderr.splitlines() == [
        f"{broken}:{rest}"
        for rest in (
            "7: unknown setting 'exactbonus' (did you mean 'exactBonus'?)",
            "8: setting zeroBidScoring: 'double' is not an option (allowed: flatBonus, doubleBonus, "
            "perCardBonus) (did you mean 'doubleBonus'?)",
            "13: round 2, Ben: the dealer may not bid 1 under screwTheDealer=always: the bids would "
            "add up to the hand size of 2",
            "15: round 3, Cara: bid '1.5' is not a whole number",
            "16: round 3: tricks add up to 4, 1 more than the hand size of 3",
            "17: round 4: unknown player 'Eve'",
            "17: round 4, Dan: missing bid",
            "19: round 5: more rounds than the game has: it ends after round 4 (roundMode=custom with "
            "4 players)",
        )
    ]


# --- the typed points audit -----------------------------------------------------------------


def test_typed_points_are_audited_by_check_and_score_points_to_it(write):
    path = write(
        "typed.csv",
        "round,player,bid,tricks,points\n"
        "1,A,1,1,30\n1,B,0,0,25\n1,C,0,0,x\n"
        "2,A,0,0,20\n2,B,1,1,30\n2,C,0,1,-20\n3,A,1,\n",
    )
    result = run("check", path)
    assert (result.exit_code, result.stdout) == (1, f"{path}: 3 problems\n")
    assert result.stderr.splitlines() == [
        f"{path}:3: round 1, B: typed points 25, derived 20",
        f"{path}:4: round 1, C: typed points 'x' is not a whole number",
        f"{path}:7: round 2, C: typed points -20, derived -10",
    ]
    data = json.loads(run("check", path, "-f", "json").stdout)
    assert data["problems"][0] == {
        "line": 3,
        "round": 1,
        "player": "B",
        "message": "typed points 25, derived 20",
    }
    scored = run("score", path, "-f", "csv")  # the derived points, and one line about the typed
    assert scored.exit_code == 0
    assert scored.stdout.splitlines()[1:4] == ["1,A,1,1,30,30", "1,B,0,0,20,20", "1,C,0,0,20,20"]
    assert scored.stderr == (
        f"{path}: typed points disagree with those derived from bids and "
        f"tricks in 3 cells (the table shows the derived ones): wizard check "
        f"{path} lists them\n"
    )


def test_typed_points_that_agree_pass(write):
    text = LONG.read_text().splitlines()
    rows = [text[0] + ",points"] + [
        f"{row},{points}" for row, points in zip(text[1:], [c[2] for r in SPEC_ROUNDS for c in r])
    ]
    path = write("typed.csv", "\n".join(rows) + "\n")
    assert (
        ok("check", path, "--set", "roundMode=custom", "--set", "customRoundCount=5")
        == f"{path}: ok\n"
    )


# --- next -----------------------------------------------------------------------------------

NEXT_SIX = """\
Round:              7 of 10
Hand size:          7
Dealer:             Rosa
Bidding order:      Mia, Noah, Olga, Pete, Quinn, Rosa
Bids in:            Mia 3, Noah 1
Bids so far:        4 of 7
Next to bid:        Olga
"""

NEXT_SIX_JSON = {
    "round": 7,
    "handSize": 7,
    "dealer": "Rosa",
    "biddingOrder": ["Mia", "Noah", "Olga", "Pete", "Quinn", "Rosa"],
    "bidsIn": {"Mia": 3, "Noah": 1},
    "bidTotal": 4,
    "nextBidder": "Olga",
    "noTrump": False,
    "forbiddenDealerBid": None,
    "finished": False,
}
NEXT_KEYS = [
    "round",
    "handSize",
    "dealer",
    "biddingOrder",
    "bidsIn",
    "bidTotal",
    "nextBidder",
    "noTrump",
    "forbiddenDealerBid",
    "finished",
]


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        ("table", NEXT_SIX),
        (
            "markdown",
            """\
|               |                                    |
|---------------|------------------------------------|
| Round         | 7 of 10                            |
| Hand size     | 7                                  |
| Dealer        | Rosa                               |
| Bidding order | Mia, Noah, Olga, Pete, Quinn, Rosa |
| Bids in       | Mia 3, Noah 1                      |
| Bids so far   | 4 of 7                             |
| Next to bid   | Olga                               |
""",
        ),
        (
            "csv",
            "round,handSize,dealer,biddingOrder,bidsIn,bidTotal,nextBidder,noTrump,"
            "forbiddenDealerBid,finished\n"
            "7,7,Rosa,Mia Noah Olga Pete Quinn Rosa,Mia=3 Noah=1,4,Olga,false,,false\n",
        ),
        (
            "tsv",
            "round\thandSize\tdealer\tbiddingOrder\tbidsIn\tbidTotal\tnextBidder\tnoTrump\t"
            "forbiddenDealerBid\tfinished\n"
            "7\t7\tRosa\tMia Noah Olga Pete Quinn Rosa\tMia=3 Noah=1\t4\tOlga\tfalse\t\tfalse\n",
        ),
    ],
)
def test_next_text_formats(fmt, expected):
    assert ok("next", SIX, "-f", fmt) == expected


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_next_json(fmt):
    data = json.loads(ok("next", SIX, "-f", fmt))
    assert data == NEXT_SIX_JSON and list(data) == NEXT_KEYS


def test_next_once_the_game_is_over():
    assert ok("next", WORKED) == "Game over — Ben wins\n"
    data = json.loads(ok("next", WORKED, "-f", "json"))
    assert data == {key: None for key in NEXT_KEYS[:-1]} | {"finished": True, "winners": ["Ben"]}
    assert list(data) == NEXT_KEYS + ["winners"]


def test_next_gives_the_forbidden_bid_once_only_the_dealer_is_left(write):
    path = write(
        "n.yaml",
        "players: [A, B, C]\nsettings: {screwTheDealer: always}\nrounds:\n"
        "  - bids: [0, 0, 0]\n    tricks: [1, 0, 0]\n  - bids: {C: 1}\n",
    )
    assert json.loads(ok("next", path, "-f", "json"))["forbiddenDealerBid"] is None
    path.write_text(path.read_text().replace("{C: 1}", "{C: 1, A: 1}"))
    assert ok("next", path) == (
        "Round:              2 of 20\n"
        "Hand size:          2\n"
        "Dealer:             B\n"
        "Bidding order:      C, A, B\n"
        "Bids in:            C 1, A 1\n"
        "Bids so far:        2 of 2\n"
        "Next to bid:        B\n"
        "Dealer may not bid: 0\n"
    )
    assert json.loads(ok("next", path, "-f", "json"))["forbiddenDealerBid"] == 0


def test_next_before_any_round_and_with_no_trump(write):
    path = write(
        "q.yaml",
        "players: [A, B, C, D, E, F]\nfirstDealer: C\nsettings: "
        "{roundMode: quickPlay}\nrounds:\n"
        + "".join(
            f"  - bids: [0, 0, 0, 0, 0, 0]\n    tricks: [{n}, 0, 0, 0, 0, 0]\n"
            for n in (2, 4, 6, 8)
        ),
    )
    data = json.loads(ok("next", path, "-f", "json"))
    assert data == {
        "round": 5,
        "handSize": 10,
        "dealer": "A",
        "biddingOrder": ["B", "C", "D", "E", "F", "A"],
        "bidsIn": {},
        "bidTotal": 0,
        "nextBidder": "B",
        "noTrump": True,
        "forbiddenDealerBid": None,
        "finished": False,
    }
    assert ok("next", path).splitlines()[1] == "Hand size:          10 (whole deck: no trump)"


def test_next_reads_stdin():
    data = json.loads(ok("next", "-", "-f", "json", input=SIX.read_text()))
    assert data == NEXT_SIX_JSON


# --- the program ------------------------------------------------------------------------------


def test_version():
    assert ok("--version") == f"wizard {__version__}\n"


def test_python_dash_m_runs_the_cli():
    root = Path(__file__).resolve().parent.parent
    result = subprocess.run(
        [sys.executable, "-m", "wizard_cli", "--version"],
        capture_output=True,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, f"wizard {__version__}\n", "")


@pytest.mark.parametrize(
    "sheet", ["worked-example.yaml", "six-players-in-progress.yaml", "club-season.yaml"]
)
@pytest.mark.parametrize("bonus", [(), ("--set", "finalRoundBonus=20")])
def test_the_tables_say_what_the_json_says(sheet, bonus):
    """The score and standings tables are drawn from the JSON record: each round's cells are its
    ``results``, the Total row each player's last total, the standings table its ``standings``
    (a Bonus column only when someone has one)."""
    import re

    games = [
        json.loads(line)
        for line in ok("score", SAMPLES / sheet, *bonus, "-f", "jsonl").splitlines()
    ]
    texts = ok("score", SAMPLES / sheet, *bonus).split("\n\n")
    assert games and len(texts) == 4 * len(games)
    for at, data in enumerate(games):
        table, standings = texts[4 * at + 1], texts[4 * at + 2]
        cells = [re.split(r" {2,}", line.strip()) for line in table.splitlines()[2:]]
        played = [
            r for r in data["rounds"] if r["results"][data["players"][0]]["tricks"] is not None
        ]
        total = played[-1]["results"] if played else {}
        expected = [
            [
                str(r["round"]),
                str(r["handSize"]),
                r["dealer"],
                *(
                    f"{v['bid']}/{v['tricks']} → {v['points']:+d} = {v['total']}"
                    if v["tricks"] is not None
                    else "?"
                    if v["bid"] is None
                    else f"{v['bid']}/?"
                    for v in r["results"].values()
                ),
            ]
            for r in data["rounds"]
        ]
        expected.append(
            ["Total", *(str(total[p]["total"] if total else 0) for p in data["players"])]
        )
        assert cells == expected
        bonus_column = any(s["bonus"] for s in data["standings"])
        rows = [line.split() for line in standings.splitlines()[2:]]
        assert rows == [
            [
                str(s["rank"]),
                s["player"],
                str(s["score"]),
                *([str(s["bonus"])] if bonus_column else []),
            ]
            for s in data["standings"]
        ]
