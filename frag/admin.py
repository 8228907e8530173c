from __future__ import annotations

from django.contrib import admin

from frag.models import Game, Seat, Step


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "map_name", "status", "winner_seat", "version", "updated_at"]
    list_filter = ["status", "map_name"]
    readonly_fields = ["seed", "version", "snapshot", "config"]
    inlines = [SeatInline]


@admin.register(Step)
class StepAdmin(admin.ModelAdmin):
    list_display = ["__str__", "game", "number", "seat", "created_at"]
    readonly_fields = ["game", "number", "seat", "actor", "action", "events", "created_at"]

    def has_change_permission(self, request, obj=None) -> bool:
        return False
