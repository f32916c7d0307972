from django.urls import path

from games.learn import views

app_name = "learn"

urlpatterns = [
    path("learn/", views.index, name="index"),
    path("learn/<slug:slug>/start/", views.start, name="start"),
]
