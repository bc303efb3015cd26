"""Three Laws played live."""
