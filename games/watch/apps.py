from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WatchConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.watch"
    label = "watch"
    verbose_name = _("Live tables to watch")

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from games.models import Hand
        from games.signals import game_finished
        from games.watch import lobby

        # A listed table starts or changes hand (a hand is dealt), or finishes: the
        # lobby's list changes (games/watch/lobby.py).
        post_save.connect(lobby.on_hand_saved, sender=Hand, dispatch_uid="watch.hand_dealt")
        game_finished.connect(lobby.on_game_finished, dispatch_uid="watch.game_finished")

        from games import plugins
        from games.watch import actions, views

        # the table's watchers and the home page's live tables (games/plugins.py)
        plugins.do_watch = actions.do_watch
        plugins.do_unwatch = actions.do_unwatch
        plugins.watcher_count = actions.watcher_count
        plugins.do_reconcile_watchers = actions.do_reconcile_watchers
        plugins.live_list = views.live_list
