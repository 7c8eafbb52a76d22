"""Record when each match, table and house preset was last used, so that `forget_unused` can
delete what nobody has touched for long (player names are personal data)."""

import django.utils.timezone
from django.db import migrations, models
from django.db.models import Max, OuterRef, Subquery
from django.db.models.functions import Coalesce


def backfill(apps, schema_editor):
    """Existing rows: their last recorded use, not the day of this migration."""
    Match = apps.get_model("cetele", "Match")
    Change = apps.get_model("cetele", "Change")
    HousePreset = apps.get_model("cetele", "HousePreset")
    Table = apps.get_model("cetele", "Table")
    last_change = (
        Change.objects.filter(match=OuterRef("pk"))
        .values("match")
        .annotate(last=Max("at"))
        .values("last")
    )
    Match.objects.update(touched_at=Coalesce(Subquery(last_change), "created_at"))
    HousePreset.objects.update(touched_at=models.F("updated_at"))
    Table.objects.update(touched_at=models.F("created_at"))


class Migration(migrations.Migration):
    dependencies = [
        ("cetele", "0003_tables"),
    ]

    operations = [
        migrations.AddField(
            model_name=model,
            name="touched_at",
            field=models.DateTimeField(db_index=True, default=django.utils.timezone.now),
        )
        for model in ("match", "housepreset", "table")
    ] + [migrations.RunPython(backfill, migrations.RunPython.noop)]
