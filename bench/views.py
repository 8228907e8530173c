"""Bare Django views for benchmarks: the floor a Tablée page is measured against."""

from __future__ import annotations

import datetime as dt
from functools import cache

from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.template.backends.django import Template

BARE_PAGE = """{% extends "base.html" %}
{% block title %}Bare{% endblock %}
{% block content %}
<h1>Bare page</h1>
<table>
  <thead><tr><th>#</th><th>name</th><th>value</th><th>when</th></tr></thead>
  <tbody>
  {% for row in rows %}<tr><td>{{ row.n }}</td><td>{{ row.name }}</td><td>{{ row.value }}</td><td>{{ row.when|date:"SHORT_DATETIME_FORMAT" }}</td></tr>
  {% endfor %}
  </tbody>
</table>
{% endblock %}
"""


def bare(request: HttpRequest, queries: int) -> HttpResponse:
    with connection.cursor() as cursor:
        for _ in range(queries):
            cursor.execute("SELECT 1")
            cursor.fetchone()
    return HttpResponse("ok", content_type="text/plain")


@cache
def _bare_template() -> Template:
    return engines["django"].from_string(BARE_PAGE)  # type: ignore[return-value]


def bare_page(request: HttpRequest) -> HttpResponse:
    """The floor of a Django dashboard: 12 queries and a 40-row table in the site's base template."""
    with connection.cursor() as cursor:
        for _ in range(12):
            cursor.execute("SELECT 1")
            cursor.fetchone()
    when = dt.datetime(2026, 11, 23, 20, 0, tzinfo=dt.UTC)
    rows = [{"n": n, "name": f"Row {n}", "value": n * 7, "when": when + dt.timedelta(minutes=n)} for n in range(40)]
    return HttpResponse(_bare_template().render({"rows": rows}, request))
