from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from core.markdown import render_markdown

register = template.Library()


@register.filter(name="markdown")
def markdown_filter(text: str) -> SafeString:
    # render_markdown sanitises with nh3, so the result is safe to mark.
    return mark_safe(render_markdown(text or ""))  # noqa: S308
