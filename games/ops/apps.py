from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OpsConfig(AppConfig):
    name = "games.ops"
    label = "ops"
    verbose_name = _("Operations")

    def ready(self) -> None:
        from games.ops import collector

        # the gauges read at scrape time join the core's counters (okeysite.metrics)
        collector.register()
