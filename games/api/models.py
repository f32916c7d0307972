"""Personal access tokens of the HTTP API (docs/api.md).

A token's secret is shown once, when it is made (``games.api.tokens.do_create_token``);
only its SHA-256 ``digest`` is stored, with its first characters (``prefix``) so its owner
can tell their tokens apart. A revoked token stays (``revoked_at``) and never works again.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# What a token may do (``ApiToken.scopes``): read the caller's own records, play at the
# caller's tables, read the tournaments the caller organises or plays in.
SCOPE_READ = "read"
SCOPE_PLAY = "play"
SCOPE_TOURNAMENT = "tournament"
SCOPES = (SCOPE_READ, SCOPE_PLAY, SCOPE_TOURNAMENT)
SCOPE_CHOICES = [
    (SCOPE_READ, _("Read: your games, hands and profile")),
    (SCOPE_PLAY, _("Play: open tables, invite, see your seat and move")),
    (SCOPE_TOURNAMENT, _("Tournament: the tournaments you organise or play in")),
]


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("user"),
    )
    name = models.CharField(_("name"), max_length=60)
    prefix = models.CharField(_("prefix"), max_length=8)
    digest = models.CharField(_("digest"), max_length=64, unique=True)
    scopes = models.JSONField(_("scopes"), default=list)
    created_at = models.DateTimeField(_("created"))
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    def allows(self, scope: str) -> bool:
        return scope in (self.scopes or ())
