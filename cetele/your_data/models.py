"""What is forgotten when nobody uses it: the base of a match, a table, a house preset and a
tournament (docs/privacy.md)."""

import logging
from datetime import timedelta

from django.db import DatabaseError, models, transaction
from django.utils import timezone

logger = logging.getLogger(__name__)

# Opening a page records the visit at most this often, so that reading costs no write.
TOUCH_EVERY = timedelta(days=1)


class Forgettable(models.Model):
    """Something people make and then may stop using (a match, a table, a house preset).

    `touched_at` is its last use: created, changed, a match started with it, or opened through
    one of its links (a visit is written at most once a day; a live-view poll is not a visit).
    `forget_unused` deletes what stays untouched for long (docs/privacy.md): player names are
    personal data and are not kept forever.
    """

    touched_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        abstract = True

    def touch(self) -> None:
        """Record a visit; a no-op (no query) when one was recorded less than a day ago. A visit
        the database cannot take now (locked past its timeout, a full disk) is left for the next
        one: recording it never fails the page (its savepoint keeps a caller's transaction)."""
        now = timezone.now()
        if self.touched_at > now - TOUCH_EVERY:
            return
        try:
            with transaction.atomic():
                type(self).objects.filter(pk=self.pk).update(touched_at=now)
        except DatabaseError as error:
            logger.warning("A visit was not recorded, the database refused the write: %s", error)
            return
        self.touched_at = now
