from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class InsightsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.insights"
    label = "insights"
    verbose_name = _("Insights")

    def ready(self) -> None:
        from games.insights import actions
        from games.signals import analysis_ready, hand_finished, par_ready

        # a finished hand's figures are stored in its transaction; the par and the
        # analysis join them when the review has computed them
        hand_finished.connect(actions.on_hand_finished, dispatch_uid="insights.hand")
        par_ready.connect(actions.on_par_ready, dispatch_uid="insights.par")
        analysis_ready.connect(actions.on_analysis_ready, dispatch_uid="insights.analysis")
