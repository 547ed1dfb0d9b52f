"""YAML (and JSON) sheets: the safe line-aware parser, values, the reader and writer, YAML text."""
