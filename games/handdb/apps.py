from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HandDbConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.handdb"
    label = "handdb"
    verbose_name = _("Hand database")
