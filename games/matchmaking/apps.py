from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MatchmakingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.matchmaking"
    label = "matchmaking"
    verbose_name = _("Quick match")

    def ready(self) -> None:
        from games import plugins
        from games.matchmaking import rules, waiting

        plugins.fill_wait = rules.fill_wait  # CPUs fill a quick-match table after its wait
        plugins.waiting_context = waiting.waiting_context  # the waiting card
