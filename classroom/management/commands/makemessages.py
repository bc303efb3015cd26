"""Django's makemessages, also gathering the engines' words marked N_ (games/engines/i18n.py)."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]
