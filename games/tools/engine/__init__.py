"""The engine's measuring tools: pure Python, no Django (``games/tools/__init__.py``)."""
