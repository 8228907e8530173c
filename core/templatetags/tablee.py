from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from core.markdown import render_markdown
from core.sprites import sprite_sheet

register = template.Library()


@register.simple_tag
def sprites() -> SafeString:
    """The pictures every page draws from (``core.sprites``): once, at the top of the body."""
    return sprite_sheet()


@register.filter(name="markdown")
def markdown_filter(text: str) -> SafeString:
    # render_markdown sanitises with nh3, so the result is safe to mark.
    return mark_safe(render_markdown(text or ""))  # noqa: S308
