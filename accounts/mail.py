"""Sending the site's mail (password-reset links).

With a slow backend (SMTP), a reset request for an address that has an account would take
visibly longer than one for an unknown address, which tells the requester whether the
address is registered. ``EMAIL_SEND_IN_BACKGROUND`` (on by default with the SMTP backend)
hands each message to a thread, so the page answers at once either way. The console, file
and local-memory backends send inline (tests read the outbox right after the request).
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.core.mail import EmailMessage

logger = logging.getLogger(__name__)


def _send(message: EmailMessage) -> None:
    try:
        message.send()
    except Exception:  # noqa: BLE001 - a failed mail must not change the page
        logger.exception("Failed to send mail %r", message.subject)


def deliver(message: EmailMessage) -> None:
    """Send ``message`` now, or in a background thread when the settings ask for it."""
    if getattr(settings, "EMAIL_SEND_IN_BACKGROUND", False):
        threading.Thread(target=_send, args=(message,), daemon=True).start()
    else:
        _send(message)
