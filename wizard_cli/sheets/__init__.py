"""Formats in and out: opening inputs, one reader per format, writers, in-place edits, atomic files."""
