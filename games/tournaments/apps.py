from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.tournaments"
    label = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from games.signals import game_finished
        from games.tournaments import actions

        game_finished.connect(actions.do_post_game_result, dispatch_uid="tournaments.post_result")

        from games import plugins
        from games.tournaments.models import TournamentTable

        def tournament_table(table):  # the table page's link back to its tournament
            return (
                TournamentTable.objects.filter(game=table)
                .select_related("round__tournament")
                .first()
            )

        plugins.tournament_table = tournament_table

        from games.tournaments import dealing

        # duplicate rounds: every table deals the round's seeds, and their finished hands
        # stay hidden while another table of the round plays them (games/plugins.py)
        plugins.seed_sources.append(dealing.seed_for)
        plugins.deal_embargoed = dealing.deal_embargoed
