"""The application layer: batches over many sources, recording a game; between the CLI and the core."""
