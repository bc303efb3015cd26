from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("reports", "0001_exports"),
    ]

    operations = [
        migrations.AddField(
            model_name="export",
            name="language",
            field=models.CharField(
                choices=[("en", "English"), ("es", "Español")], default="en", max_length=10
            ),
        ),
    ]
