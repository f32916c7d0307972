# English dates: "1 Dec 2026", "1 Dec 2026, 14:05" (okeysite/formats/__init__.py).
DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATE_FORMAT = DATE_FORMAT
SHORT_DATETIME_FORMAT = DATETIME_FORMAT
