from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReviewConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.review"
    label = "review"
    verbose_name = _("Reviews")

    def ready(self) -> None:
        from games.signals import hand_finished

        from . import par

        # each finished hand's par, queued once the hand's transaction commits
        hand_finished.connect(par.on_hand_finished, dispatch_uid="review-par")
