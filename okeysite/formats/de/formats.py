# German dates: "1. Dez. 2026", "1. Dez. 2026, 14:05" (okeysite/formats/__init__.py).
DATE_FORMAT = "j. N Y"
DATETIME_FORMAT = "j. N Y, H:i"
SHORT_DATE_FORMAT = DATE_FORMAT
SHORT_DATETIME_FORMAT = DATETIME_FORMAT
