"""Each match and table keeps its phone-side key (cetele.models.new_phone_key): random for new
ones, and for those already made the key phones already hold, an HMAC of the row's number with
this server's SECRET_KEY (what it was derived from until now), so that "Maçlarım", kept pages and
waiting offline hands keep finding them. Run it with the SECRET_KEY the server runs with."""

from django.db import migrations, models
from django.utils.crypto import salted_hmac

import cetele.models

# The salts the keys were derived with (cetele.sharing.match_key, cetele.tables.table_key).
LEGACY_SALTS = {"Match": "cetele.match-key", "Table": "cetele.table-key"}


def legacy_key(model_name: str, pk: int) -> str:
    return salted_hmac(LEGACY_SALTS[model_name], str(pk)).hexdigest()[:16]


def keep_the_keys_phones_hold(apps, schema_editor) -> None:
    for model_name in LEGACY_SALTS:
        model = apps.get_model("cetele", model_name)
        rows = [
            model(pk=pk, phone_key=legacy_key(model_name, pk))
            for pk in model.objects.values_list("pk", flat=True).iterator()
        ]
        model.objects.bulk_update(rows, ["phone_key"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("cetele", "0009_miss_counts"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="phone_key",
            field=models.CharField(
                default=cetele.models.new_phone_key, editable=False, max_length=16
            ),
        ),
        migrations.AddField(
            model_name="table",
            name="phone_key",
            field=models.CharField(
                default=cetele.models.new_phone_key, editable=False, max_length=16
            ),
        ),
        migrations.RunPython(keep_the_keys_phones_hold, migrations.RunPython.noop, elidable=True),
    ]
