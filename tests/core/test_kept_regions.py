"""The kept-fragment service for regions (core/kept_regions.py): a key derived from the declaration and from
the template's sources, one switch that changes nothing but the work done."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import override_settings

from core import kept_regions
from core.regions import Depends, Region, subject
from core.template_digest import forget_markup_versions, markup_version, template_digest


def _templates(tmp_path: Path) -> list[dict[str, object]]:
    return [{"BACKEND": "django.template.backends.django.DjangoTemplates", "DIRS": [tmp_path], "APP_DIRS": False}]


def test_changing_an_included_templates_source_changes_the_markup_version(tmp_path: Path) -> None:
    (tmp_path / "outer.html").write_text('{% load i18n %}<div>{% include "inner.html" %}</div>')
    (tmp_path / "inner.html").write_text("<p>{{ value }}</p>")
    with override_settings(TEMPLATES=_templates(tmp_path)):
        before = template_digest("outer.html#part")
        assert template_digest("outer.html") == before  # a partial's markup is its file's
        (tmp_path / "inner.html").write_text("<p class='changed'>{{ value }}</p>")
        assert template_digest("outer.html") != before


def test_changing_a_templates_source_changes_the_regions_key(tmp_path: Path) -> None:
    (tmp_path / "region.html").write_text("<p>{{ value }}</p>")
    region = Region("test-region", "region.html", load=lambda pk, m: pk, context=lambda t, m, r: {"value": t},
                    depends=lambda t, m, r: Depends(campaign_id=1, subjects=frozenset()))  # fmt: skip
    depends = Depends(campaign_id=1, subjects=frozenset({subject("character", 1)}), head=7)
    with override_settings(TEMPLATES=_templates(tmp_path)):
        forget_markup_versions()
        before = kept_regions.outer_key(region, depends)
        assert kept_regions.outer_key(region, depends) == before  # derived: the same declaration, the same key
        (tmp_path / "region.html").write_text("<p><b>{{ value }}</b></p>")
        forget_markup_versions()  # a new process reads the sources again
        assert markup_version("region.html") == template_digest("region.html")
        assert kept_regions.outer_key(region, depends) != before
    forget_markup_versions()


def test_a_tag_librarys_python_is_part_of_the_markup_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tag that writes markup in Python (``{% playing_card %}``) changes the markup as a template would."""
    from core import template_digest as digests

    (tmp_path / "cards.html").write_text("{% load conflicts_tags %}{{ value }}")
    with override_settings(TEMPLATES=_templates(tmp_path)):
        before = template_digest("cards.html")
        monkeypatch.setattr(digests, "_library_sources", lambda names: ["# another version"] if names else [])
        assert template_digest("cards.html") != before


def test_the_markup_writer_a_tag_library_imports_is_part_of_the_markup_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``{% playing_card %}`` imports ``conflicts.card_svg`` when it runs, and that module writes the card: a new card
    (its symbols, session 23) must change the markup version of every template that loads the tags."""
    from core import template_digest as digests

    (tmp_path / "cards.html").write_text("{% load conflicts_tags %}{{ value }}")
    real = digests._module_source
    with override_settings(TEMPLATES=_templates(tmp_path)):
        before = template_digest("cards.html")
        monkeypatch.setattr(
            digests, "_module_source", lambda name: "# another card" if name == "conflicts.card_svg" else real(name)
        )
        assert template_digest("cards.html") != before


def test_a_list_of_nested_regions_is_part_of_the_markup_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``{% regions "name" things %}`` nests a list of regions as ``{% region %}`` nests one: the outer template's
    markup version follows the nested region's template, and the tag renders each thing through the service."""
    from django.template import engines

    from core import regions

    (tmp_path / "outer.html").write_text('{% load regions %}<ol>{% regions "test-lines" things %}</ol>')
    (tmp_path / "line.html").write_text("<li>{{ value }}</li>")
    line = Region("test-lines", "line.html", load=lambda pk, m: pk, context=lambda t, m, r: {"value": t},
                  depends=lambda t, m, r: Depends(campaign_id=1, subjects=frozenset(), rows=(t,)))  # fmt: skip
    monkeypatch.setitem(regions._registry, line.name, line)
    monkeypatch.setattr(regions, "_known", regions.ContextVar("known", default=(frozenset({"table:1"}), {})))
    with override_settings(TEMPLATES=_templates(tmp_path)):
        forget_markup_versions()
        outer = engines["django"].get_template("outer.html")
        assert outer.render({"things": ["un", "deux"], "membership": None}) == "<ol><li>un</li><li>deux</li></ol>"
        before = template_digest("outer.html")
        (tmp_path / "line.html").write_text("<li class='line'>{{ value }}</li>")
        assert template_digest("outer.html") != before
    forget_markup_versions()


def test_a_list_of_regions_reads_the_markup_version_language_and_zone_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``regions_html`` keys every thing of the list with the same region, language and zone: read once for the list
    (a story of a hundred lines read them two hundred times), with the keys ``region_html`` makes."""
    from django.core.cache import caches

    (tmp_path / "line.html").write_text("<li>{{ value }}</li>")
    line = Region("test-lines", "line.html", load=lambda pk, m: pk, context=lambda t, m, r: {"value": t},
                  depends=lambda t, m, r: Depends(campaign_id=1, subjects=frozenset(), rows=(t,), head=3))  # fmt: skip
    monkeypatch.setattr(kept_regions, "versions", lambda subjects, campaign_id=None: {})
    counted: list[str] = []

    def counting(name: str) -> str:
        counted.append(name)
        return markup_version(name)

    monkeypatch.setattr(kept_regions, "markup_version", counting)
    with override_settings(TEMPLATES=_templates(tmp_path)):
        forget_markup_versions()
        caches["fragments"].clear()
        things = [f"ligne {n}" for n in range(5)]
        assert kept_regions.regions_html(line, things, None) == [f"<li>{t}</li>" for t in things]
        assert len(counted) == 1
        depends = line.depends(things[0], None, None)
        assert kept_regions.outer_key(line, depends) in caches["fragments"]  # the keys region_html makes
        assert kept_regions.inner_key(line, depends, found={}) in caches["fragments"]
    forget_markup_versions()


@pytest.mark.parametrize("kept", [True, False])
def test_a_members_own_parts_go_into_every_copy_kept_for_wider_readers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings: pytest.FixtureRequest, kept: bool
) -> None:
    """``Region.own``: a region kept for readers wider than one member (``Depends.alike``, a players' board kept for its
    spectators) gets each member's own parts put into their copy, whether it is rendered alone (``region_html``), in a
    list (``regions_html``), kept or afresh; the kept copy itself is the readers' alike, never one member's."""
    from django.core.cache import caches

    (tmp_path / "shared.html").write_text("<p>{{ value }}</p>")
    shared = Region(
        "test-shared", "shared.html", load=lambda pk, m: pk, context=lambda t, m, r: {"value": t},
        depends=lambda t, m, r: Depends(campaign_id=1, subjects=frozenset(), viewer=m, alike=lambda: "everyone"),
        own=lambda html, t, m: html.replace("</p>", f" · {m}</p>"),
    )  # fmt: skip
    monkeypatch.setattr(kept_regions, "versions", lambda subjects, campaign_id=None: {})
    settings.FRAGMENT_CACHE = kept  # type: ignore[attr-defined]
    with override_settings(TEMPLATES=_templates(tmp_path)):
        forget_markup_versions()
        caches["fragments"].clear()
        assert kept_regions.region_html(shared, "table", "Ana") == "<p>table · Ana</p>"
        assert kept_regions.region_html(shared, "table", "Bob") == "<p>table · Bob</p>"  # Ana's copy not served
        assert kept_regions.regions_html(shared, ["table"], "Cy") == ["<p>table · Cy</p>"]
        if kept:  # the one copy kept is the readers' alike, before any member's part is put in
            assert list(caches["fragments"]._cache.values()) == ["<p>table</p>"]  # type: ignore[attr-defined]
    forget_markup_versions()


@pytest.mark.django_db
def test_two_things_of_one_region_declared_alike_are_kept_apart(tmp_path: Path) -> None:
    """A declaration says what a region's bytes depend on, not which thing it shows: two Sequences' boards read by one
    narrator at one stream head declare alike. The key holds the region's element id, so neither is served the
    other's bytes, by ``region_html`` or by ``regions_html``."""
    (tmp_path / "thing.html").write_text('<p id="thing-{{ value }}">{{ value }}</p>')
    alike = Depends(campaign_id=1, subjects=frozenset({subject("character", 1)}), head=7)
    region = Region("test-things", "thing.html", load=lambda pk, m: pk, context=lambda t, m, r: {"value": t},
                    depends=lambda t, m, r: alike, element_id=lambda thing: f"thing-{thing}")  # fmt: skip
    with override_settings(TEMPLATES=_templates(tmp_path), FRAGMENT_CACHE=True):
        forget_markup_versions()
        assert kept_regions.region_html(region, 1, None) == '<p id="thing-1">1</p>'
        assert kept_regions.region_html(region, 2, None) == '<p id="thing-2">2</p>'
        assert kept_regions.regions_html(region, [2, 3], None) == ['<p id="thing-2">2</p>', '<p id="thing-3">3</p>']
    forget_markup_versions()


def test_subjects_named_by_reading_are_read_only_for_an_event_of_their_kinds() -> None:
    """A board's participants' ``character`` and ``states`` (``Depends.more``): a draw in another Sequence, which
    touches neither kind, is answered without reading who takes part; a wound is not; a declaration that names a kind
    it did not say it names is refused (``changed_by`` could miss a change)."""
    from core.regions import Depends

    reads: list[str] = []

    def participants() -> frozenset[str]:
        reads.append("read")
        return frozenset({"character:7", "states:7"})

    def board() -> Depends:
        return Depends(campaign_id=3, subjects=frozenset({"sequence:1"}), more=participants,
                       more_kinds=frozenset({"character", "states"}))  # fmt: skip

    assert not board().changed_by({"sequence:2", "drew:9", "turn:7", "log:3"}) and reads == []
    assert board().changed_by({"sequence:1"}) and reads == []
    assert board().changed_by({"table:3"}) and reads == []
    assert not board().changed_by({"character:8"}) and reads == ["read"]
    assert board().changed_by({"states:7"}) and reads == ["read", "read"]
    assert board().all_subjects() == {"sequence:1", "character:7", "states:7", "table:3"}
    stray = Depends(campaign_id=3, subjects=frozenset(), more=participants, more_kinds=frozenset({"character"}))
    with pytest.raises(ValueError, match="states:7"):
        stray.changed_by({"character:7"})


@pytest.mark.django_db
def test_what_an_event_changed_asks_the_regions_declaration_once(tmp_path: Path) -> None:
    """``changed_html`` asks whether the Event changed the region, then renders it whole under that same declaration:
    what it read (its subjects, its readers: a board's story read apart) is not read a second time."""
    (tmp_path / "region.html").write_text("<p>{{ value }}</p>")
    asked: list[int] = []

    def depends(thing: int, membership: object, request: object) -> Depends:
        asked.append(thing)
        return Depends(campaign_id=1, subjects=frozenset({subject("character", thing)}))

    region = Region("test-asked-once", "region.html", load=lambda pk, m: pk, context=lambda t, m, r: {"value": t},
                    depends=depends)  # fmt: skip
    with override_settings(TEMPLATES=_templates(tmp_path)):
        forget_markup_versions()
        assert kept_regions.changed_html(region, 4, None, frozenset({"character:5"})) == []
        assert asked == [4]
        (html,) = kept_regions.changed_html(region, 4, None, frozenset({"character:4"}))
        assert html == "<p>4</p>" and asked == [4, 4]
    forget_markup_versions()
