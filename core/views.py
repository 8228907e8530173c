from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("campaigns:list")
    return render(request, "home.html")


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True})
