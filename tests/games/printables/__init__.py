"""Printables: their pages, PDFs, sheet layouts and cache."""
