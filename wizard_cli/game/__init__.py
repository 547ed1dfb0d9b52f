"""Pure rules of the game: settings, the game model, validation, scoring, the next step, compare, stats, trick. No I/O, no Typer, no printing."""
