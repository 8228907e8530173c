"""``{% url %}`` for every template of the site, its answers kept per process (a built-in library: ``TEMPLATES``'
``builtins`` in config/settings.py, loaded after Django's own tags, so it takes the name).

A URL is a pure function of the URL map, the script prefix, the view's name, its arguments and the current app (the
site's URLs name no language: no ``i18n_patterns``; the language is in the key all the same, so that a translated
URL map would stay right). Django's ``reverse`` costs some 20–30 µs; a board of eight rows asked it 17 times, an
eighth of its rendering, and every log page, panel and live push asks it again for the same few URLs.

Only arguments of plain types are kept (``int``, ``str``, exactly): a model instance is equal to any other of its row,
and its text (which ``reverse`` would print) may have changed since. Keyword arguments, or any other value, go through
Django's own tag as before.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django import template
from django.conf import settings
from django.template.base import Parser, Token
from django.template.context import Context
from django.template.defaulttags import URLNode
from django.template.defaulttags import url as django_url
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape
from django.utils.translation import get_language

register = template.Library()

_PLAIN = (int, str)


@lru_cache(maxsize=4096)
def _reversed(
    urlconf: str, prefix: str, language: str | None, view_name: str, args: tuple[Any, ...], current_app: str | None
) -> str:
    return reverse(view_name, urlconf=urlconf, args=args, current_app=current_app)


def _current_app(context: Context) -> str | None:
    """As ``{% url %}`` finds it: the request's ``current_app`` (set by a view), else its namespace, else none."""
    request = getattr(context, "request", None)
    if request is None:
        return None
    current_app = getattr(request, "current_app", None)
    if current_app is not None:
        return str(current_app)
    match = getattr(request, "resolver_match", None)
    return None if match is None else match.namespace


class KeptURLNode(URLNode):
    def render(self, context: Context) -> str:
        if self.kwargs:
            return super().render(context)
        args = tuple(arg.resolve(context) for arg in self.args)
        if any(type(arg) not in _PLAIN for arg in args):
            return super().render(context)
        urlconf = get_urlconf() or settings.ROOT_URLCONF
        try:
            name = self.view_name.resolve(context)
            url = _reversed(urlconf, get_script_prefix(), get_language(), name, args, _current_app(context))
        except NoReverseMatch:
            if self.asvar is None:
                raise
            url = ""
        if self.asvar:
            context[self.asvar] = url
            return ""
        return conditional_escape(url) if context.autoescape else url


@register.tag
def url(parser: Parser, token: Token) -> KeptURLNode:
    """``{% url 'app:name' arg1 arg2 as var %}``, as Django's, with positional plain arguments kept per process."""
    node = django_url(parser, token)
    return KeptURLNode(node.view_name, node.args, node.kwargs, node.asvar)
