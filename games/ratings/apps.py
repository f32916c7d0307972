from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.ratings"
    label = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from games.ratings import api
        from games.signals import game_finished

        # a rated game's ratings change in the transaction that finishes it
        game_finished.connect(api.do_rate_finished_game, dispatch_uid="ratings.apply")
