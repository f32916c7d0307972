"""/api/: version 1 (the ninja API's routes and its OpenAPI document, /api/v1/openapi.json),
the rendered docs at /api/docs (Swagger UI, served from this site's static files), and a
JSON 404 for anything else under /api/ (an unknown version such as /api/v2/)."""

from django.http import HttpRequest, HttpResponse
from django.urls import path, re_path

from games.api.api import api
from games.api.errors import json_404


def docs(request: HttpRequest) -> HttpResponse:
    return api.docs.render_page(request, api)


urlpatterns = [
    path("v1/", api.urls),
    path("docs", docs, name="api-docs"),
    path("docs/", docs),
    re_path(r"^.*$", json_404),
]
