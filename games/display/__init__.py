"""Turning engine views and events into what a page shows, one module per game."""
