from django.apps import AppConfig


class CeteleConfig(AppConfig):
    name = "cetele"
    verbose_name = "Çetele"
    default_auto_field = "django.db.models.BigAutoField"
