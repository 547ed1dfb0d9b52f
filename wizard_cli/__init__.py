"""wizard — score Wizard card-game score sheets from the command line."""

__version__ = "0.1.0"
