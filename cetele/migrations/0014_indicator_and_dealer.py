"""Who deals the first hand (each hand's dealer follows from its place), and the gösterge of the
hand being entered (cetele.deal)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("cetele", "0013_change_links_do_nothing"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="first_dealer",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.CreateModel(
            name="OpenIndicator",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("position", models.PositiveIntegerField()),
                ("colour", models.CharField(blank=True, max_length=8)),
                ("number", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("fake", models.BooleanField(default=False)),
                ("seat", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "match",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="open_indicator",
                        to="cetele.match",
                    ),
                ),
            ],
        ),
    ]
