"""Changing a user's file in place (SPEC §7): atomic writes, the lock against concurrent writers, and the layout-keeping edits of a YAML sheet's rounds and seats."""
