class ServiceError(Exception):
    """A request the rules refuse; the message is shown to the person as it is."""
