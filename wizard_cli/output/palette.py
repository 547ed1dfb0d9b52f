"""The one colour-blind-safe palette of a player's colour (SPEC §9 "Accessible"): the seat
``n`` is ``PALETTE[n]`` in ``wizard plot``'s charts and on the table's screen (the page's CSS
``--pN``, checked against this list by the tests), so a player has the same colour in both.

The colours are Okabe and Ito's (2008), told apart with every common colour-vision deficiency;
their yellow is left out (it vanishes on white). A season's chart with more than six players
repeats them with dashed, then dotted lines (:data:`LINE_STYLES`).
"""

from __future__ import annotations

PALETTE = (
    "#0072b2",  # blue
    "#e69f00",  # orange
    "#009e73",  # bluish green
    "#cc79a7",  # reddish purple
    "#d55e00",  # vermillion
    "#56b4e9",  # sky blue
)
LINE_STYLES = ("-", "--", ":")


def seat_colour(seat: int) -> str:
    """The colour of the player in seat ``seat`` (0-based), the palette repeating past six."""
    return PALETTE[seat % len(PALETTE)]
