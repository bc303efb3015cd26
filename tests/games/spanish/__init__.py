"""The games' screens in Spanish."""
