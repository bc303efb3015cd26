"""Helpers shared by test modules of more than one area."""
