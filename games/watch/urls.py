from django.urls import path

from games.watch import views

app_name = "watch"

urlpatterns = [
    path("watch/", views.watch_page, name="live"),
]
