from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from campaigns.models import Campaign, Event, GameSession, Invitation, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "creation_mode", "starting_atouts", "savage_states", "game_clock", "created_at")
    search_fields = ("name",)
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("campaign", "user", "role", "joined_at")
    list_filter = ("role",)


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("campaign", "role", "created_by", "expires_at", "used_at", "used_by")
    readonly_fields = ("token",)


@admin.register(GameSession)
class GameSessionAdmin(admin.ModelAdmin):
    list_display = ("campaign", "number", "title", "date", "status")
    list_filter = ("status",)


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """The log is append-only: the admin reads it and changes nothing."""

    list_display = ("pk", "campaign", "kind", "actor", "visibility", "created_at")
    list_filter = ("kind", "visibility")
    search_fields = ("kind",)
    actions = None

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [f.name for f in self.model._meta.get_fields() if f.concrete]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
