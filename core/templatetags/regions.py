"""``{% region "name" thing %}``: a region nested inside another one's template, kept by its own declaration;
``{% regions "name" things %}``: a list of them, one after the other, looked up together.

A page region (the sheet) can hold costly parts whose bytes depend on less than the whole (the trait rows do not
read the Atouts): each is a region of its own (``core.regions``), rendered here through the kept-fragment service
(``core.kept_regions.region_html``) for the member, request and CSRF token the enclosing template renders with.
When the enclosing region is rendered anew after a change, a nested region the change did not touch is served as
it was kept. The enclosing region's declaration must name every subject, row and viewer value of the regions it
nests (its kept bytes hold theirs); ``tests/campaigns/test_one_truth.py`` checks both.

``{% regions "name" things %}``: region ``name`` for each of ``things``, each kept by its own declaration.

``{% hole "name" %}``: the other way round, a part of a region kept with a ``Frame`` (``core.regions``) that changes
with less than the rest does (a sheet's Atout counters). Region ``name`` shows the enclosing region's thing; its
template is a partial of the enclosing one's. Drawn as a frame, the hole prints its marker (``core.kept_regions``
puts the hole's own kept bytes there); otherwise it renders its partial inline, from the enclosing context (a sheet
with a form's errors, or with the caches off, is one render).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from core.kept_regions import HOLES, hole_marker, region_html, regions_html
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
def regions(context: template.Context, name: str, things: Any) -> SafeString:
    """Region ``name`` showing each of ``things``, one after the other, through ``regions_html`` (one read of the
    store for them all): a list whose lines are kept apart (a sheet's ledger: a new line renders, the others are
    found kept)."""
    token = context.get("csrf_token")
    found = regions_html(
        get(name),
        list(things),
        context.get("membership"),
        request=context.get("request"),
        token=None if token is None else str(token),
    )
    return mark_safe("".join(found))  # noqa: S308 - our own templates' output


@register.simple_tag(takes_context=True)
def hole(context: template.Context, name: str) -> SafeString:
    """Hole ``name`` of the enclosing region: its marker in a frame, else its partial from the enclosing context."""
    if context.get(HOLES):
        return mark_safe(hole_marker(name))  # noqa: S308 - a fixed comment
    # The engine's own template (a partial), rendered with the enclosing Context itself.
    return mark_safe(template.Engine.get_default().get_template(get(name).template).render(context))  # noqa: S308
