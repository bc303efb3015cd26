"""Values from a request or a token, checked before they reach the database."""


def storable(value: object, limit: int = 4000) -> bool:
    """A request value the database can take as text: a string, not too long, without NUL or
    lone surrogates (PostgreSQL refuses both)."""
    if not isinstance(value, str) or len(value) > limit or "\x00" in value:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
