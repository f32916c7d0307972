from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SoloConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.solo"
    label = "solo"
    verbose_name = _("Solo challenge")

    def ready(self) -> None:
        from games.signals import game_finished
        from games.solo import records

        game_finished.connect(records.do_record_result, dispatch_uid="solo.record_result")
