from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class CeteleConfig(AppConfig):
    default = True  # this module holds two configs: "cetele" means this one
    name = "cetele"
    verbose_name = "Çetele"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_delete

        from cetele.models import Match
        from cetele.tournaments.models import Tournament
        from cetele.your_data.forgetting import match_deleted

        # However a match or a tournament goes (its edit link, a table's deletion, the admin,
        # forget_unused): no process keeps its pages (cetele.your_data.forgetting).
        post_delete.connect(match_deleted, sender=Match, dispatch_uid="cetele.forget-deleted")
        post_delete.connect(
            match_deleted, sender=Tournament, dispatch_uid="cetele.forget-deleted-tournament"
        )


class OperatorAdminConfig(admin_apps.AdminConfig):
    """Django's admin with our site (cetele.shell.admin_site.OperatorSite): installed only when
    DJANGO_ADMIN_PATH is set (settings.admin_settings)."""

    default = False
    default_site = "cetele.shell.admin_site.OperatorSite"
