"""Objections ("İtiraz", cetele.seats.models.Objection) and the "gizli puan" option of a match.

Depends on 0013: another branch adds a 0014 beside this one; the merge puts them in order."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("cetele", "0014_indicator_and_dealer"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="hidden_totals",
            field=models.BooleanField(default=False),
        ),
        migrations.CreateModel(
            name="Objection",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("hand_number", models.PositiveIntegerField()),
                ("seat", models.PositiveSmallIntegerField()),
                (
                    "reason",
                    models.CharField(
                        choices=[
                            ("score", "Puan yanlış"),
                            ("finish", "Bitiş türü yanlış"),
                            ("penalty", "Ceza eksik"),
                            ("other", "Başka"),
                        ],
                        max_length=10,
                    ),
                ),
                ("note", models.CharField(blank=True, max_length=140)),
                ("raised_at", models.DateTimeField(auto_now_add=True)),
                (
                    "outcome",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("", "Açık"),
                            ("corrected", "El düzeltildi"),
                            ("closed", "Doğru bulundu, kapatıldı"),
                            ("gone", "El silindi"),
                        ],
                        default="",
                        max_length=10,
                    ),
                ),
                ("ended_at", models.DateTimeField(blank=True, null=True)),
                (
                    "ended_by",
                    models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="cetele.change",
                    ),
                ),
                (
                    "match",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="objections",
                        to="cetele.match",
                    ),
                ),
            ],
            options={
                "ordering": ["raised_at", "pk"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("outcome", "")),
                        fields=("match", "hand_number", "seat"),
                        name="one_open_objection_per_seat_and_hand",
                    )
                ],
            },
        ),
    ]
