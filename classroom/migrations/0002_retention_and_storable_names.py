import unicodedata

import classroom.validators
import django.core.validators
from django.db import migrations, models


def names_to_nfc(apps, schema_editor):
    """Student names typed before names were normalised: "Zoë" with a combining diaeresis
    becomes the one-character "ë". Where that now equals another student's name in the same
    class (two rows that only looked the same), the later one gets a number."""
    Student = apps.get_model("classroom", "Student")
    for student in Student.objects.order_by("pk").iterator():
        name = " ".join(unicodedata.normalize("NFC", student.name).split())
        if name == student.name:
            continue
        taken = {
            n.casefold()
            for n in Student.objects.filter(classroom_id=student.classroom_id)
            .exclude(pk=student.pk)
            .values_list("name", flat=True)
        }
        candidate, number = name, 2
        while candidate.casefold() in taken:
            candidate = f"{name[:56]} {number}"
            number += 1
        student.name = candidate
        student.save(update_fields=["name"])


class Migration(migrations.Migration):
    dependencies = [
        ("classroom", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="school",
            name="retention_months",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="Empty keeps it until you delete it.",
                null=True,
                validators=[
                    django.core.validators.MinValueValidator(1),
                    django.core.validators.MaxValueValidator(120),
                ],
                verbose_name="keep archived classes' student data for (months)",
            ),
        ),
        migrations.AlterField(
            model_name="student",
            name="name",
            field=models.CharField(
                max_length=60,
                validators=[classroom.validators.validate_storable_text],
                verbose_name="first name or nickname",
            ),
        ),
        migrations.RunPython(names_to_nfc, migrations.RunPython.noop),
    ]
