from django.urls import path

from games.ops import views

app_name = "ops"

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("metrics", views.metrics, name="metrics"),
]
