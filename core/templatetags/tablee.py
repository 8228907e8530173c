from __future__ import annotations

from functools import lru_cache
from typing import Any

from django import template
from django.conf import settings
from django.template.base import Parser, Token
from django.template.context import Context
from django.template.defaulttags import URLNode, url
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape
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


@lru_cache(maxsize=4096)
def _reversed(urlconf: str, prefix: str, view_name: str, args: tuple[Any, ...], current_app: str | None) -> str:
    return reverse(view_name, urlconf=urlconf, args=args, current_app=current_app)


class KeptURLNode(URLNode):
    """``{% url %}`` whose answers are kept per process: a URL is a pure function of the URL map, the script
    prefix, the name and its arguments. Django's ``reverse`` costs some 30 µs; a board of eight rows asked it 17
    times, an eighth of its rendering."""

    def render(self, context: Context) -> str:
        if self.kwargs:
            return super().render(context)
        args = tuple(arg.resolve(context) for arg in self.args)
        try:  # as {% url %} finds it
            current_app = context.request.current_app  # type: ignore[attr-defined]  # set by a view, or absent
        except AttributeError:
            try:
                current_app = context.request.resolver_match.namespace  # type: ignore[attr-defined]  # idem
            except AttributeError:
                current_app = None
        urlconf = get_urlconf() or settings.ROOT_URLCONF
        try:
            url = _reversed(urlconf, get_script_prefix(), self.view_name.resolve(context), args, current_app)
        except NoReverseMatch:
            if self.asvar is None:
                raise
            url = ""
        if self.asvar:
            context[self.asvar] = url
            return ""
        return conditional_escape(url) if context.autoescape else url


@register.tag
def url_kept(parser: Parser, token: Token) -> KeptURLNode:
    """``{% url_kept 'app:name' arg1 arg2 as var %}``: ``{% url %}`` with positional arguments, kept per process."""
    node = url(parser, token)
    return KeptURLNode(node.view_name, node.args, node.kwargs, node.asvar)
