"""The site's date formats, one per language (``FORMAT_MODULE_PATH`` in settings).

Every date the site shows uses ``DATE_FORMAT`` and every date with a time
``DATETIME_FORMAT``: a day, the month's short name in the reader's language and the
full year ("1 Dec 2026", "1 dic 2026", "1. Dez. 2026", "1 Ara 2026"), never a
numeric form that reads differently in each country (12/01/2026). The SHORT_ formats
are the same, so nothing (the admin included) falls back to a numeric date. What is
not set here (input formats, number formats) comes from Django's own locale files.
"""
