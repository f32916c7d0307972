# Spanish dates: "1 dic 2026", "1 dic 2026, 14:05" (okeysite/formats/__init__.py).
DATE_FORMAT = "j b Y"
DATETIME_FORMAT = "j b Y, H:i"
SHORT_DATE_FORMAT = DATE_FORMAT
SHORT_DATETIME_FORMAT = DATETIME_FORMAT
