"""Django templates against Jinja2 on the hot regions, uncached render CPU only: run by ``bench/template_engines.py``
in a subprocess with its own database; prints one JSON document.

The same context objects are rendered by both engines (built once, before timing): a log entry, a player's board
row, a dashboard panel and the sheet's trait rows (the three lists with their roll controls, most of the sheet's
bytes). A region may also name a ``python`` writer, timed as a third column (board rows had one, since replaced by
their template). Each round renders every item of a region with Django, then with Jinja2 (interleaved,
as the machine is shared); the ratio is Jinja2's CPU over Django's, per round. The outputs are compared first,
whitespace and CSRF tokens aside: a port that prints something else is reported, not timed as equal.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import django

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.template import engines  # noqa: E402
from django.template.backends.jinja2 import Jinja2  # noqa: E402
from django.test import RequestFactory  # noqa: E402
from django.utils import translation  # noqa: E402

from bench.pages_worker import changes, seed  # noqa: E402
from campaigns.models import Campaign, Event, Membership  # noqa: E402
from campaigns.selectors import log_entries  # noqa: E402
from characters.models import Character  # noqa: E402
from characters.selectors import characters_for_panels  # noqa: E402
from characters.views.sheet import sheet_context  # noqa: E402
from conflicts.models import Sequence  # noqa: E402
from conflicts.selectors import sequence_board  # noqa: E402

HERE = Path(__file__).resolve().parent
Item = tuple[str, dict[str, Any], Any]  # (template, context, request)


def jinja_engine() -> Jinja2:
    return Jinja2({
        "NAME": "bench-jinja2", "DIRS": [str(HERE / "jinja2")], "APP_DIRS": False,
        "OPTIONS": {"environment": "bench.jinja_env.environment", "extensions": ["jinja2.ext.i18n"]},
    })  # fmt: skip


def normal(html: str) -> str:
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', 'name="csrfmiddlewaretoken" value=""', html)
    html = html.replace("&#39;", "&#x27;")  # MarkupSafe and Django escape an apostrophe alike, in two spellings
    html = re.sub(r"\s+", " ", html)
    return re.sub(r"> <", "><", html).strip()


def regions(s: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each region's items: its Django template, its Jinja2 port, and the contexts (with their request) to render."""
    campaign = Campaign.objects.get(pk=s["campaign"])
    narrator = Membership.objects.select_related("campaign", "user").get(campaign=campaign, user_id=s["narrator"])
    player = Membership.objects.select_related("campaign", "user").get(campaign=campaign, user_id=s["player"])
    request = RequestFactory().get("/")
    request.user = User.objects.get(pk=s["player"])
    request.session = SessionStore()
    events = Event.objects.filter(campaign=campaign).order_by("-created_at", "-id").for_display()[:50]
    entries = log_entries(events, narrator)
    board = sequence_board(Sequence.objects.get(pk=s["sequence"]), player)
    panels = list(characters_for_panels(campaign))
    character = Character.objects.select_related("campaign", "owner").get(pk=s["sheet"])
    sheet = sheet_context(character, player)
    return {
        "log entry": {
            "django": "campaigns/partials/entry.html", "jinja": "campaigns/entry.jinja",
            "items": [({"entry": entry}, None) for entry in entries],
        },
        "board row": {
            "django": "conflicts/partials/board_row.html", "jinja": "conflicts/board_row.jinja",
            "items": [({"board": board, "v": v, "p": v.participant}, None) for v in board.views],
        },
        "dashboard panel": {
            "django": "characters/partials/panel.html", "jinja": "characters/panel.jinja",
            "items": [({"character": c, "campaign": campaign, "membership": narrator, "quick": True, "oob": False}, None)
                      for c in panels],
        },
        "sheet trait rows": {
            "django": "characters/partials/trait_list.html", "jinja": "characters/trait_list.jinja",
            "items": [({**sheet, "lines": lines}, request)
                      for lines in (sheet["sheet"].aptitudes, sheet["sheet"].fields, sheet["sheet"].power_domains)],
        },
    }  # fmt: skip


def cpu_ms(func: Callable[[], object], batch: int) -> float:
    start = time.process_time()
    for _ in range(batch):
        func()
    return (time.process_time() - start) * 1000 / batch


def whole_sheet_ms(s: dict[str, Any], rounds: int, batch: int) -> float:
    """The whole sheet region (``characters/detail.html#sheet``) with Django, from one context: the trait rows'
    share of it. Rendering the sheet leaves an unsaved default state row cached on the character (the attribute rows'
    ``states.bridge.attribute_rolls``), which a second render of the same object would read (its fatigue tracks
    cannot be listed): the cache is put back as the sheet's context left it before each render."""
    player = Membership.objects.select_related("campaign", "user").get(campaign_id=s["campaign"], user_id=s["player"])
    character = Character.objects.select_related("campaign", "owner").get(pk=s["sheet"])
    request = RequestFactory().get("/")
    request.user = player.user
    request.session = SessionStore()
    context = sheet_context(character, player)
    left = character._state.fields_cache.get("savage_state")
    whole = engines["django"].get_template("characters/detail.html#sheet")

    def render() -> str:
        character._state.fields_cache["savage_state"] = left
        return str(whole.render(context, request))

    return statistics.median(cpu_ms(render, batch) for _ in range(rounds))


def main() -> None:
    rounds = int(os.environ.get("BENCH_ROUNDS", "7"))
    batch = int(os.environ.get("BENCH_BATCH", "20"))
    language = os.environ.get("BENCH_LANGUAGE", "fr")
    call_command("migrate", verbosity=0)
    s = seed(int(os.environ.get("BENCH_TEMPLATE_EVENTS", "300")))
    draw = changes(s)["draw"]
    for _ in range(5):  # cards on the board: five of the eight have drawn
        draw()
    django_engine, jinja = engines["django"], jinja_engine()
    out: dict[str, Any] = {"language": language, "regions": {}}
    with translation.override(language):
        for name, region in regions(s).items():
            dj = django_engine.get_template(region["django"])
            jj = jinja.get_template(region["jinja"])
            items = region["items"]
            python = region.get("python")

            def with_django(dj: Any = dj, items: list[Any] = items) -> list[str]:
                return [dj.render(context, request) for context, request in items]

            def with_jinja(jj: Any = jj, items: list[Any] = items) -> list[str]:
                return [jj.render(context, request) for context, request in items]

            mine, theirs = with_django(), with_jinja()
            same = [normal(a) == normal(b) for a, b in zip(mine, theirs, strict=True)]
            found: dict[str, Any] = {
                "items": len(items), "bytes": sum(len(h) for h in mine) // max(1, len(items)),
                "same_markup": all(same),
            }  # fmt: skip
            if not all(same):
                i = same.index(False)
                a, b = normal(mine[i]), normal(theirs[i])
                at = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
                found["first_difference"] = {
                    "django": a[max(0, at - 80) : at + 120],
                    "jinja": b[max(0, at - 80) : at + 120],
                }
            if python is not None:
                assert all(python(context) == html for (context, _r), html in zip(items, mine, strict=True)), name
            django_ms, jinja_ms, python_ms, ratios = [], [], [], []
            for _ in range(rounds):
                d = cpu_ms(with_django, batch) / len(items)
                j = cpu_ms(with_jinja, batch) / len(items)
                django_ms.append(d)
                jinja_ms.append(j)
                ratios.append(j / d)
                if python is not None:
                    python_ms.append(
                        cpu_ms(lambda items=items, python=python: [python(c) for c, _r in items], batch) / len(items)
                    )
            found.update({
                "django_ms": statistics.median(django_ms), "jinja_ms": statistics.median(jinja_ms),
                "ratio": statistics.median(ratios), "ratio_min": min(ratios), "ratio_max": max(ratios),
            })  # fmt: skip
            if python_ms:
                found["python_ms"] = statistics.median(python_ms)
            out["regions"][name] = found
        out["sheet_whole_django_ms"] = whole_sheet_ms(s, rounds, batch)
    out["load"] = os.getloadavg()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
    sys.exit(0)
