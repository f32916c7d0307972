from django.urls import path

from . import views

app_name = "review"

urlpatterns = [
    path("games/", views.my_games, name="my_games"),
    path("review/game/<str:code>/", views.game_detail, name="game"),
    path("review/game/<str:code>/export/", views.game_export, name="game_export"),
    path("review/game/<str:code>/share/", views.share_create, name="share_create"),
    path("review/share/<int:pk>/revoke/", views.share_revoke, name="share_revoke"),
    path("review/hand/<int:hand_id>/", views.hand_replay, name="hand"),
    path("review/hand/<int:hand_id>/commentary/", views.hand_commentary, name="hand_commentary"),
    path("review/hand/<int:hand_id>/analysis/", views.hand_analysis, name="hand_analysis"),
    path("review/hand/<int:hand_id>/par/", views.hand_par, name="hand_par"),
    path("review/hand/<int:hand_id>/export/", views.hand_export, name="hand_export"),
    path("review/s/<str:token>/", views.shared_game, name="shared"),
    path("review/s/<str:token>/hand/<int:number>/", views.shared_hand, name="shared_hand"),
    path(
        "review/s/<str:token>/hand/<int:number>/commentary/",
        views.shared_commentary,
        name="shared_commentary",
    ),
    path(
        "review/s/<str:token>/hand/<int:number>/analysis/",
        views.shared_analysis,
        name="shared_analysis",
    ),
    path("review/s/<str:token>/hand/<int:number>/par/", views.shared_par, name="shared_par"),
    path("review/s/<str:token>/export/", views.shared_export, name="shared_export"),
    path("review/import/", views.import_page, name="import"),
    path("review/imported/<int:pk>/hand/<int:number>/", views.imported_hand, name="imported_hand"),
    path(
        "review/imported/<int:pk>/hand/<int:number>/commentary/",
        views.imported_commentary,
        name="imported_commentary",
    ),
    path(
        "review/imported/<int:pk>/hand/<int:number>/analysis/",
        views.imported_analysis,
        name="imported_analysis",
    ),
    path("review/imported/<int:pk>/export/", views.imported_export, name="imported_export"),
]
