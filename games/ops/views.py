"""/healthz and /metrics (function views; docs/operators.md)."""

from __future__ import annotations

import hmac
import ipaddress

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from games.ops import health


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when every check passes, else 503; the body names each part "ok" or "failing"
    and nothing more (no error text, no address), so it may be open to anyone."""
    verdicts = health.run_checks()
    failing = [name for name, ok in verdicts.items() if not ok]
    body = {
        "status": "failing" if failing else "ok",
        "checks": {name: "ok" if ok else "failing" for name, ok in verdicts.items()},
        "failing": failing,
    }
    return JsonResponse(body, status=503 if failing else 200)


def allowed_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(n, strict=False) for n in settings.METRICS_ALLOWED_IPS]


def client_address(request: HttpRequest) -> str:
    """The client's address as accounts.throttle.client_ip finds it (``REMOTE_ADDR``, or
    behind ``TRUSTED_PROXIES`` proxies the address the nearest of them forwarded), whole
    (the throttles count an IPv6 client by its /64)."""
    address = request.META.get("REMOTE_ADDR") or ""
    hops = int(getattr(settings, "TRUSTED_PROXIES", 0) or 0)
    if hops > 0:
        forwarded = [
            part.strip()
            for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
            if part.strip()
        ]
        if forwarded:
            address = forwarded[-hops] if len(forwarded) >= hops else forwarded[0]
    return address


def may_scrape(request: HttpRequest) -> bool:
    """A scraper from ``METRICS_ALLOWED_IPS`` (the client as the throttles see it: behind
    ``TRUSTED_PROXIES`` proxies, the address they forwarded, never the proxy's own), or
    one that sends ``Authorization: Bearer <METRICS_TOKEN>``."""
    token = settings.METRICS_TOKEN
    if token:
        sent = request.headers.get("Authorization", "")
        if hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
            return True
    try:
        address = ipaddress.ip_address(client_address(request).strip("[]"))
    except ValueError:
        return False
    if address.version == 6 and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in network for network in allowed_networks())


@never_cache
@require_safe
def metrics(request: HttpRequest) -> HttpResponse:
    """This process's metrics in Prometheus's text format; anyone not allowed gets the
    site's 404, as for a page that does not exist."""
    if not may_scrape(request):
        raise Http404
    return HttpResponse(generate_latest(REGISTRY), content_type=CONTENT_TYPE_LATEST)
