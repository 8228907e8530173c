from __future__ import annotations

from django.contrib import admin

from characters.models import AtoutEntry, Character, CharacterRules, CharacterTrait, Equipment, Revers


class TraitInline(admin.TabularInline):
    model = CharacterTrait
    extra = 0


class ReversInline(admin.TabularInline):
    model = Revers
    extra = 0


class EquipmentInline(admin.TabularInline):
    model = Equipment
    extra = 0


class AtoutEntryInline(admin.TabularInline):
    """The ledger is written by the services only: read it here, never edit it."""

    model = AtoutEntry
    extra = 0
    can_delete = False
    fields = ("delta", "pool", "use", "reason", "justification", "game_session", "actor", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ("name", "campaign", "kind", "owner", "atouts_creation", "atouts_experience")
    list_filter = ("kind",)
    search_fields = ("name", "concept")
    readonly_fields = ("atouts_creation", "atouts_experience", "version")
    inlines = [TraitInline, ReversInline, EquipmentInline, AtoutEntryInline]


@admin.register(CharacterRules)
class CharacterRulesAdmin(admin.ModelAdmin):
    list_display = ("campaign", "players_name_traits", "human_maximum", "progression")
