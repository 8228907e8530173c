"""``{% region "name" thing %}``: a region nested inside another one's template, kept by its own declaration;
``{% regions "name" things %}``: a list of them, one after the other, looked up together.

A page region (the sheet) can hold costly parts whose bytes depend on less than the whole (the trait rows do not
read the Atouts): each is a region of its own (``core.regions``), rendered here through the kept-fragment service
(``core.kept_regions.region_html``) for the member, request and CSRF token the enclosing template renders with.
When the enclosing region is rendered anew after a change, a nested region the change did not touch is served as
it was kept. The enclosing region's declaration must name every subject, row and viewer value of the regions it
nests (its kept bytes hold theirs); ``tests/campaigns/test_one_truth.py`` checks both.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from core.kept_regions import region_html, regions_html
from core.regions import get

register = template.Library()


@register.simple_tag(takes_context=True)
def region(context: template.Context, name: str, thing: Any) -> SafeString:
    """Region ``name`` showing ``thing`` to the enclosing template's ``membership``."""
    token = context.get("csrf_token")
    # The enclosing render's token: the kept-fragment marker (put in on the enclosing region's way out), a page's
    # token, or none (a live push); a request's lazy token reads as its string.
    return region_html(
        get(name),
        thing,
        context["membership"],
        request=context.get("request"),
        token=None if token is None else str(token),
    )


@register.simple_tag(takes_context=True)
def regions(context: template.Context, name: str, things: list[Any]) -> SafeString:
    """Region ``name`` showing each of ``things``, in order (``core.kept_regions.regions_html``: one read of the store
    for all of them, and the region's ``prepare`` loads what only those not kept need, at once)."""
    token = context.get("csrf_token")
    htmls = regions_html(
        get(name),
        things,
        context.get("membership"),
        request=context.get("request"),
        token=None if token is None else str(token),
    )
    return mark_safe("".join(htmls))  # noqa: S308 - the regions' own templates' output
