"""The project's own "How to play" pages (Markdown, four languages) and their tiny renderer."""

from .render import LANGUAGES, SLUGS, load_page, render_markdown

__all__ = ["LANGUAGES", "SLUGS", "load_page", "render_markdown"]
