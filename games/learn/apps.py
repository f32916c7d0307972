from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LearnConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.learn"
    label = "learn"
    verbose_name = _("Learn by playing")

    def ready(self) -> None:
        from games import plugins
        from games.learn import hooks

        # a lesson's deal, its CPUs' moves, its checks and its panel (games/plugins.py)
        plugins.seed_sources.append(hooks.seed_for)
        plugins.scripted_move = hooks.scripted_move
        plugins.lesson_refusal = hooks.lesson_refusal
        plugins.lesson_panel = hooks.lesson_panel
