"""Tabletop tables' saved state becomes the tabletop engine's own `to_dict()`
(games.engines.bot_builders.tabletop): the seats in order and the birth months join the
benches, so the state restores without reading the TableGame row around it."""

from django.db import migrations

SLOTS = ("sense", "think", "act", "power", "mission")


def forwards(apps, schema_editor):
    TableGame = apps.get_model("games", "TableGame")
    for game in TableGame.objects.filter(mode="tabletop").iterator():
        state = game.state or {}
        if "seats" in state:
            continue
        benches = state.get("benches") or {}
        months = (game.options or {}).get("birth_months") or {}
        game.state = {
            "seats": list(game.seats),
            "benches": {
                seat: dict(benches.get(seat) or dict.fromkeys(SLOTS)) for seat in game.seats
            },
            "birth_months": {seat: month for seat, month in months.items() if month},
        }
        game.save(update_fields=["state"])


def backwards(apps, schema_editor):
    TableGame = apps.get_model("games", "TableGame")
    for game in TableGame.objects.filter(mode="tabletop").iterator():
        game.state = {"benches": (game.state or {}).get("benches") or {}}
        game.save(update_fields=["state"])


class Migration(migrations.Migration):
    dependencies = [("games", "0002_teachback_spotlight")]

    operations = [migrations.RunPython(forwards, backwards)]
