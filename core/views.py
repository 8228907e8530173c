from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.http import require_GET

from core.health import components_down


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("campaigns:list")
    return render(request, "home.html")


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database and the channel layer answer, else 503 naming what is down (for load
    balancers and monitoring: a table without its channel layer cannot play live)."""
    down = components_down()
    return JsonResponse({"ok": not down, "down": down}, status=503 if down else 200)


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers and feed readers ask for /favicon.ico whatever the page says: send them to the icon
    (a 404 on every page filled the logs). Not permanent: the static name changes with its content."""
    return redirect(static("favicon.svg"))
