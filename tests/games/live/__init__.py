"""Live tables: moves, polls, streams, kept drawings and the versions that say what changed."""
