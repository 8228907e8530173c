"""A bare Django view for benchmarks: the same number of queries as a Tablée page, nothing else."""

from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, HttpResponse


def bare(request: HttpRequest, queries: int) -> HttpResponse:
    with connection.cursor() as cursor:
        for _ in range(queries):
            cursor.execute("SELECT 1")
            cursor.fetchone()
    return HttpResponse("ok", content_type="text/plain")
