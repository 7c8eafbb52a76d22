"""The join link ("Masaya katıl", cetele.seats): every match gets a third token, its own.

A callable default in one AddField would be called once and give every existing match the same
token, so the column is added empty, each match is given its own random token, and only then is
it made unique and required. Also the seats the joined phones take, the rows they write, and
the version their poll compares."""

from django.db import migrations, models

import cetele.models
import cetele.seats.models


def give_each_match_its_own_join_token(apps, schema_editor) -> None:
    Match = apps.get_model("cetele", "Match")
    rows = [
        Match(pk=pk, join_token=cetele.models.new_token())
        for pk in Match.objects.filter(join_token__isnull=True).values_list("pk", flat=True)
    ]
    Match.objects.bulk_update(rows, ["join_token"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("cetele", "0011_redo_and_rescore"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="join_token",
            field=models.CharField(max_length=64, null=True),
        ),
        migrations.RunPython(give_each_match_its_own_join_token, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="match",
            name="join_token",
            field=models.CharField(default=cetele.models.new_token, max_length=64, unique=True),
        ),
        migrations.AddField(
            model_name="match",
            name="draft_version",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.CreateModel(
            name="SeatClaim",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("seat", models.PositiveSmallIntegerField()),
                (
                    "key",
                    models.CharField(
                        default=cetele.seats.models.new_claim_key, max_length=64, unique=True
                    ),
                ),
                ("claimed_at", models.DateTimeField(auto_now_add=True)),
                (
                    "match",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=models.deletion.CASCADE,
                        related_name="seat_claims",
                        to="cetele.match",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("match", "seat"), name="one_phone_per_seat")
                ],
            },
        ),
        migrations.CreateModel(
            name="DraftRow",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("position", models.PositiveIntegerField()),
                ("seat", models.PositiveSmallIntegerField()),
                ("values", models.JSONField()),
                ("finished", models.BooleanField(default=False)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "match",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=models.deletion.CASCADE,
                        related_name="draft_rows",
                        to="cetele.match",
                    ),
                ),
            ],
            options={
                "ordering": ["seat"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("match", "position", "seat"), name="one_draft_row_per_seat"
                    )
                ],
            },
        ),
    ]
