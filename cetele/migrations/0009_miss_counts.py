"""The link-guessing limiter's counts in a table of their own (DJANGO_CACHE_URL=db): one UPDATE
per miss, atomic, never culled."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('cetele', '0008_one_undo_per_change_indexed_only_where_there_is_one'),
    ]

    operations = [
        migrations.CreateModel(
            name='MissCount',
            fields=[
                ('counter', models.CharField(max_length=80, primary_key=True, serialize=False)),
                ('window', models.BigIntegerField(help_text='Which fixed window (time // its length).')),
                ('count', models.PositiveIntegerField(default=0)),
            ],
        ),
    ]
