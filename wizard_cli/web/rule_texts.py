"""The core's English texts that the New game page shows, marked for the catalogue.

A setting's meaning (``game/settings.py``) and a built-in preset's (``game/compare.py``) stay
English in the core, where ``wizard rules`` prints them; the page asks the catalogue for the
core's text itself (the ``translated`` filter in ``new.html``), so the core stays the one source
of the English, and this list exists only so that ``pybabel extract`` finds those texts as
msgids. ``tests/test_serve_language.py`` fails when it and the core differ by a text.
"""

from __future__ import annotations


def _(text: str) -> str:
    """Marks a text for the catalogue (pybabel extract); the template translates it."""
    return text


SETTING_MEANINGS = (
    _(
        "how many rounds, and the hand sizes: deal out the whole deck (1 card, 2, … up to"
        " 60 // players); a custom count of rounds; or quick play (hand sizes grow by 2)"
    ),
    _("rounds to play when roundMode is custom (hand sizes 1..N); at most 60 // players"),
    _("flat bonus for taking exactly the tricks bid"),
    _("points per trick taken, on an exact bid only"),
    _("lost per trick away from the bid, either direction"),
    _(
        "a made bid of zero scores exactBonus (flatBonus), 2 × exactBonus (doubleBonus), "
        "or exactBonus + pointsPerTrick × hand size (perCardBonus)"
    ),
    _(
        "the dealer may not bid so that the bids add up to the hand size: never (off), "
        "always, only when the dealer alone leads (leaderOnly, the even bid rule), or "
        "unless two or more share the lead (unlessTiedLead, the killer rule)"
    ),
    _("with a dealer restriction on, a dealer bid of 0 is always allowed"),
    _(
        "a dealer restriction applies only in rounds dealing at least this many cards (2:"
        " never in a one-card round)"
    ),
    _(
        "open bids; hidden (revealed together); delayed (revealed after the hand); hidden"
        " and delayed rule out screwTheDealer"
    ),
    _("end of game: added to every player who made every bid"),
    _(
        "equal scores share the rank (shareWin), or the higher sum of bids (totalBids) or"
        " more made bids (madeBids) ranks first"
    ),
    _("added to each made bid in the last round of a finished game"),
    _("subtracted from the dealer in each round whose bids add up to the hand size"),
    _(
        "the anniversary editions' special cards are in the deck: the last round has a "
        "trump, and rounds may record the Bomb and the Cloud"
    ),
)
PRESET_MEANINGS = (
    _("the published rules (round count and bidding untouched)"),
    _("a made bid of zero scores twice the exact bonus"),
    _("the dealer may never make the bids add up to the hand size"),
    _("the even bid rule, where a dealer bid of zero is always allowed"),
    _("50 points at the end for everyone who made every bid"),
)
