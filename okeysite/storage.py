"""Static files storage: WhiteNoise's hashed, compressed files once ``collectstatic`` has run.

Before any ``collectstatic`` (a server a test starts on its own, or ``manage.py serve`` on a
fresh checkout) there is no manifest: pages then name the plain files and WhiteNoise finds
them in ``static/`` (``WHITENOISE_USE_FINDERS`` in settings), instead of every page failing
with "Missing staticfiles manifest entry". ``make run`` always collects first.
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    def stored_name(self, name: str) -> str:
        if not self.hashed_files:  # no manifest yet: the plain name
            return name
        return super().stored_name(name)
