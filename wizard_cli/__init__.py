"""wizard — score Wizard card-game score sheets, from the command line or from Python.

``import wizard_cli as wizard`` gives the library of SPEC §10 (``read``, ``load``, ``check``,
``score``, ``compare``, ``stats``, ``ratings``, ``next_step``, ``Game``, ``GameResult``,
``Comparison``, ``Problem``, ``Problems``, ``WizardError``). Its module, and everything it reads with, is
imported when one of these names is first used (PEP 562): ``import wizard_cli`` alone, which
every command does, costs no more start-up than the version string.
"""

from __future__ import annotations

TYPE_CHECKING = False  # (typing itself is not imported: it costs a tenth of a bare start-up)

__version__ = "0.1.0"

__all__ = [
    "Comparison",
    "Game",
    "GameResult",
    "Problem",
    "Problems",
    "WizardError",
    "__version__",
    "check",
    "compare",
    "load",
    "next_step",
    "ratings",
    "read",
    "score",
    "stats",
]

if TYPE_CHECKING:
    from typing import Any

    from .game.compare import Comparison
    from .library import (
        Game,
        GameResult,
        Problem,
        Problems,
        WizardError,
        check,
        compare,
        load,
        next_step,
        ratings,
        read,
        score,
        stats,
    )


def __getattr__(name: str) -> Any:
    """A public name, from the library module, imported when first asked for."""
    if name == "Comparison":  # (what compare returns: its module, not the library's)
        from .game import compare

        value = compare.Comparison
    elif name in __all__:
        from . import library

        value = getattr(library, name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names (those not yet imported too)."""
    return sorted(__all__)
