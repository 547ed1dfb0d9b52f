"""CSV sheets: long and wide files, their rows, cells of special cards, the season's runs, and their writers."""
