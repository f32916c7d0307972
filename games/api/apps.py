from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    """The documented HTTP API (/api/v1/, docs/api.md): django-ninja routes over what the
    site already reads and the table's ``do_*`` actions, and personal access tokens."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.api"
    label = "api"
    verbose_name = _("HTTP API")
