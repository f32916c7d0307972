from django.urls import path

from . import views, views_cards

app_name = "tournaments"

urlpatterns = [
    path("tournaments/", views.tournament_list, name="list"),
    path("tournaments/new/", views.tournament_create, name="create"),
    path("tournaments/import/", views.tournament_import, name="import"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="detail"),
    path("tournaments/<int:pk>/player/<int:entry_id>/", views.player_history, name="player"),
    path("tournaments/<int:pk>/matrix/", views.meeting_matrix, name="matrix"),
    path("tournaments/<int:pk>/standings/print/", views.standings_print, name="standings_print"),
    path("tournaments/<int:pk>/standings.csv", views.standings_csv, name="standings_csv"),
    path("tournaments/<int:pk>/results.csv", views.results_csv, name="results_csv"),
    path("tournaments/<int:pk>/export.json", views.export_json, name="export_json"),
    path("tournaments/<int:pk>/desk/", views.desk, name="desk"),
    path("tournaments/<int:pk>/edit/", views.tournament_edit, name="edit"),
    path("tournaments/<int:pk>/organisers/", views.organiser_add, name="organiser_add"),
    path(
        "tournaments/<int:pk>/organisers/<int:user_id>/remove/",
        views.organiser_remove,
        name="organiser_remove",
    ),
    path("tournaments/<int:pk>/entries/", views.entry_add, name="entry_add"),
    path("tournaments/<int:pk>/entries/<int:entry_id>/drop/", views.entry_drop, name="entry_drop"),
    path(
        "tournaments/<int:pk>/entries/<int:entry_id>/reinstate/",
        views.entry_reinstate,
        name="entry_reinstate",
    ),
    path(
        "tournaments/<int:pk>/entries/<int:entry_id>/no-show/",
        views.entry_no_show,
        name="entry_no_show",
    ),
    path(
        "tournaments/<int:pk>/entries/<int:entry_id>/remove/",
        views.entry_remove,
        name="entry_remove",
    ),
    path("tournaments/<int:pk>/apart/", views.keep_apart_add, name="apart_add"),
    path(
        "tournaments/<int:pk>/apart/<int:pair_id>/remove/",
        views.keep_apart_remove,
        name="apart_remove",
    ),
    path("tournaments/<int:pk>/seat/", views.seat_round, name="seat"),
    path("tournaments/<int:pk>/tables/<int:table_id>/result/", views.result_form, name="result"),
    path(
        "tournaments/<int:pk>/tables/<int:table_id>/next-hand/",
        views.next_hand,
        name="next_hand",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/tables/",
        views.round_tables,
        name="round_tables",
    ),
    path("tournaments/<int:pk>/rounds/<int:number>/cards/", views.table_cards, name="cards"),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/deal-cards/",
        views_cards.deal_cards_page,
        name="deal_cards",
    ),
    path("tournaments/<int:pk>/rounds/<int:number>/deals/", views.round_deals, name="deals"),
    path("tournaments/<int:pk>/audit/", views.audit_log, name="audit"),
]
