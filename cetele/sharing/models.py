"""What links keep: how a link's token is made, the links that worked once (RetiredLink) and
the admin login's count of wrong passwords (MissCount).

Links are the keys (cetele.sharing.links): a match, a table, a house preset and a tournament
each hold theirs, made here.
"""

import hashlib
import secrets

from django.db import models
from django.db.models.signals import post_delete
from django.dispatch import receiver

TOKEN_BYTES = 32  # 256 bits from `secrets`: match links are the keys, treat them like passwords


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_phone_key() -> str:
    """How a phone's lists ("Maçlarım", kept pages, waiting hands) know a match or a table:
    stable across link rotation, and random, never derived from the row's number, which a
    database restored from a backup may give again to another match."""
    return secrets.token_hex(8)


class RetiredLink(models.Model):
    """A link that worked once and was rotated or deleted (cetele.sharing.links). A rotated link
    is answered "this link changed"; a deleted one the ordinary 404, as if it never was (but "this
    match was deleted" to a browser that had it open). Only a digest of the token is kept, never
    the token."""

    digest = models.CharField(max_length=64, primary_key=True)
    deleted = models.BooleanField(default=False)
    retired_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "cetele"

    def __str__(self) -> str:
        return self.digest[:12]

    @staticmethod
    def digest_of(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()

    @classmethod
    def retire(cls, *tokens: str, deleted: bool = False) -> None:
        links = [cls(digest=cls.digest_of(token), deleted=deleted) for token in tokens if token]
        cls.objects.bulk_create(links, ignore_conflicts=True)

    @classmethod
    def find(cls, token: str) -> "RetiredLink | None":
        return cls.objects.filter(digest=cls.digest_of(token)).first()


# The senders are named by their label: the models holding links are built on this module.
@receiver(post_delete, sender="cetele.Match")
@receiver(post_delete, sender="cetele.Table")
@receiver(post_delete, sender="cetele.HousePreset")
@receiver(post_delete, sender="cetele.Tournament")
def retire_deleted_links(sender, instance, **kwargs) -> None:
    """However it goes (its edit link, the admin, forget_unused), a deleted thing's links are
    retired like rotated ones: phones still polling them must not lock out their café, nor be
    counted as guessing."""
    join = getattr(instance, "join_token", "")  # a match's third link
    RetiredLink.retire(instance.edit_token, instance.view_token, join, deleted=True)


class MissCount(models.Model):
    """How many wrong admin passwords one client address sent in the current window (links are
    never counted): the admin login's count (cetele.shell.wrong_passwords) when it is kept in
    the database (DJANGO_CACHE_URL=db). One row per counter and address,
    counted up by one UPDATE, so that parallel guessers cannot count over each other, and never
    culled (forget_unused deletes rows whose window has passed)."""

    counter = models.CharField(max_length=80, primary_key=True)  # "admin:203.0.113.5"
    window = models.BigIntegerField(help_text="Which fixed window (time // its length).")
    count = models.PositiveIntegerField(default=0)

    class Meta:
        app_label = "cetele"

    def __str__(self) -> str:
        return f"{self.counter}: {self.count}"
