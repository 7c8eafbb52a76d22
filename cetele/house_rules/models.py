"""What a house preset keeps: a table's own ruleset, behind its own links."""

import hashlib
import json

from django.db import models, transaction

import scoring
from cetele.sharing.models import RetiredLink, new_token
from cetele.your_data.models import Forgettable

# A match form (and Match.preset_slug) names a house preset "house:<view token>".
HOUSE_PREFIX = "house:"


class PresetChanged(Exception):
    """A house preset was saved by someone else since this editor page was drawn; `now` is the
    preset as it is."""

    def __init__(self, now: "HousePreset") -> None:
        super().__init__()
        self.now = now


class HousePreset(Forgettable):
    """A table's own ruleset, saved from the preset editor; shared by its unguessable link.

    There are no accounts: whoever holds `edit_token` may change it, whoever holds `view_token`
    may read it and start matches with it. A match copies the ruleset when it starts, so editing
    a house preset never changes a match already started.
    """

    name = models.CharField(max_length=80)
    description = models.TextField(blank=True, max_length=500)
    rules = models.JSONField(help_text="The full, validated ruleset; its name is `name`.")
    base_slug = models.CharField(max_length=64, help_text="The built-in preset it started from.")
    view_token = models.CharField(max_length=64, unique=True, default=new_token)
    edit_token = models.CharField(max_length=64, unique=True, default=new_token)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta(Forgettable.Meta):  # as it was when the migrations recorded it
        app_label = "cetele"

    def __str__(self) -> str:
        return self.name

    @property
    def choice_value(self) -> str:
        """How a match form names this preset; a match started from it records the same."""
        return HOUSE_PREFIX + self.view_token

    def rotate_token(self, kind: str) -> str:
        """Give the edit or view link a new token: the old link stops working at once (matches
        started with the preset keep their copy of its rules)."""
        field = {"edit": "edit_token", "view": "view_token"}[kind]
        token = new_token()
        RetiredLink.retire(getattr(self, field))
        HousePreset.objects.filter(pk=self.pk).update(**{field: token})
        setattr(self, field, token)
        return token

    @property
    def seen(self) -> str:
        """A short digest of what the editor shows (name, description, rules): the page sends it
        back, so a save can tell that someone else saved the preset since it was drawn."""
        shown = json.dumps([self.name, self.description, self.rules], sort_keys=True)
        return hashlib.sha256(shown.encode()).hexdigest()[:16]

    def change(self, *, name: str, description: str, rules: dict, seen: str) -> None:
        """Save the editor's values, under the preset's row lock. If someone saved it since the
        page showing `seen` was drawn, PresetChanged, and nothing is written, unless it already
        holds these very values (a double tap). A page drawn before `seen` existed sends none:
        its save is taken, as it was then."""
        with transaction.atomic():
            now = HousePreset.objects.select_for_update().get(pk=self.pk)
            self.name, self.description, self.rules = name, description, rules
            if seen and now.seen not in (seen, self.seen):  # no `seen`: a page from before it
                raise PresetChanged(now)
            self.save(update_fields=["name", "description", "rules", "updated_at"])

    @property
    def base_rules(self) -> dict | None:
        """The built-in it started from, to mark what this preset changed."""
        preset = scoring.PRESETS.get(self.base_slug)
        return preset.rules if preset else None
