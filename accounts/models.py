from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# What a bot account's name carries everywhere it shows (like a CPU seat's "(CPU)"); names
# that end like it are refused to people (accounts/names.py).
BOT_MARK = "(BOT)"

LANGUAGE_CHOICES = [
    ("en", _("English")),
    ("es", _("Spanish")),
    ("de", _("German")),
    ("tr", _("Turkish")),
]


class Profile(models.Model):
    """What a player chooses about themselves; one per user, made when the user is."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="profile",
        verbose_name=_("user"),
    )
    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        help_text=_("The name other players see at the table."),
    )
    language = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES, default="en")
    assisted_default = models.BooleanField(
        _("assisted play by default"),
        default=False,
        help_text=_("Highlight melds and legal moves when you sit down at a table."),
    )
    public_records = models.BooleanField(
        _("show me on the public boards (records and ratings)"),
        default=False,
        help_text=_(
            "Your name, best solo results and ratings may appear on the public record board,"
            " the ratings boards and your own player page."
        ),
    )
    # The open hand database (games/handdb, docs/hand-database.md) exports every rated and
    # tournament game; a casual game (a casual table, a solo run) only when every person at
    # it switched this on. How the player is named there is ``public_records``'s business.
    share_hands = models.BooleanField(
        _("share my casual games in the open hand database"),
        default=False,
        help_text=_(
            "Casual games where every player shares theirs go into the monthly hand database"
            " files. Rated and tournament games always do; your name is shown there only if"
            " you appear on the public boards."
        ),
    )

    # A bot account (docs/bots-api.md): it plays through the API's bot stream, is marked
    # "(BOT)" wherever its name shows (``name``), never sits at a rated table
    # (games/live/rated.py) and is listed on the bots page. Set once, never unset
    # (``games.api.bots.do_upgrade_to_bot``).
    is_bot = models.BooleanField(_("bot account"), default=False)
    bot_since = models.DateTimeField(_("bot since"), null=True, blank=True)

    # Set by staff on the fair-play page (games/fairplay/): the account's ratings and
    # solo records leave the public boards, and rated games are rated without it
    # (games/ratings/api.py ``rebuild``). Read here so the boards need no sub-app import.
    fair_play_marked = models.BooleanField(_("marked for fair play"), default=False)
    fair_play_marked_at = models.DateTimeField(_("marked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        """The display name, or the username when none was chosen; a bot's carries the
        untranslated marker " (BOT)", as a CPU seat's carries " (CPU)"."""
        name = self.display_name or self.user.get_username()
        return f"{name} {BOT_MARK}" if self.is_bot else name
