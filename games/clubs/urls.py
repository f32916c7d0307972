from django.urls import path

from . import views

app_name = "clubs"

urlpatterns = [
    path("clubs/", views.club_list, name="list"),
    path("clubs/new/", views.club_create, name="create"),
    path("clubs/invitations/", views.invitations, name="invitations"),
    path(
        "clubs/invitations/<int:invitation_id>/accept/",
        views.invitation_accept,
        name="invitation_accept",
    ),
    path(
        "clubs/invitations/<int:invitation_id>/decline/",
        views.invitation_decline,
        name="invitation_decline",
    ),
    path("clubs/<slug:slug>/", views.club_detail, name="detail"),
    path("clubs/<slug:slug>/members/", views.invite, name="invite"),
    path("clubs/<slug:slug>/leave/", views.club_leave, name="leave"),
    path(
        "clubs/<slug:slug>/members/<int:user_id>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path("clubs/<slug:slug>/names/", views.name_link, name="name_link"),
    path("clubs/<slug:slug>/names/<int:link_id>/remove/", views.name_unlink, name="name_unlink"),
    path("clubs/<slug:slug>/seasons/new/", views.season_create, name="season_create"),
    path("clubs/<slug:slug>/seasons/<int:season_id>/", views.season_detail, name="season"),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/tournaments/",
        views.season_attach,
        name="season_attach",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/tournaments/<int:link_id>/weight/",
        views.season_weight,
        name="season_weight",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/tournaments/<int:link_id>/remove/",
        views.season_detach,
        name="season_detach",
    ),
    path("clubs/<slug:slug>/players/<str:player>/", views.player_history, name="player"),
]
