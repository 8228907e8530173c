"""The lobby: a map, frags to win and up to six seats mixing people and bots."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign
from core.form_fields import choice_field, model_choice_field
from core.forms import IdChoiceField
from frag.engine.board import available_maps, load_board
from frag.selectors.naming import language

MAX_SEATS = 6
SEAT_KINDS = [
    ("", _("Empty")),
    ("me", _("Me (hot seat: one device)")),
    ("heuristic", _("Bot (heuristic)")),
    ("random", _("Bot (random)")),
    ("search", _("Bot (search: strongest, thinks up to a second per action)")),
    ("user", _("Another person")),
]
ATTRIBUTE = [(n, str(n)) for n in range(1, 5)]
DEFAULT_KINDS = ["me", "heuristic", "heuristic", "", "", ""]


class NewGameForm(forms.Form):
    map_name = forms.ChoiceField(label=_("Map"))
    frags_to_win = forms.IntegerField(label=_("Frags to win"), min_value=1, max_value=20, initial=3)
    auto_single_answer = forms.BooleanField(
        label=_("Play a prompt with one possible answer by itself"),
        required=False,
        initial=True,
        help_text=_("For example the movement roll when no card could change it."),
    )
    auto_end_turn = forms.BooleanField(
        label=_("End a turn with nothing left to do by itself"), required=False, initial=True
    )
    campaign = IdChoiceField(
        label=_("Record in a campaign's log"),
        queryset=Campaign.objects.none(),
        required=False,
        empty_label=_("No campaign"),
        help_text=_("Its members will read in the log when the game starts and how it ends."),
        error_messages={"invalid_choice": _("You can only record a game in a campaign you are a member of.")},
    )

    def __init__(self, *args: Any, user: User | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Only the creator's own campaigns may be chosen; any other id is refused as an invalid choice.
        campaigns = (
            Campaign.objects.filter(memberships__user=user).order_by("name") if user else Campaign.objects.none()
        )
        model_choice_field(self, "campaign").queryset = campaigns
        choice_field(self, "map_name").choices = [
            (name, load_board(name).title[language()]) for name in available_maps()
        ]
        for i in range(MAX_SEATS):
            self.fields[f"seat{i}_kind"] = forms.ChoiceField(
                label=_("Who plays"),
                choices=SEAT_KINDS,
                required=False,
                initial=DEFAULT_KINDS[i],
            )
            self.fields[f"seat{i}_username"] = forms.CharField(label=_("Username"), required=False, max_length=150)
            self.fields[f"seat{i}_name"] = forms.CharField(label=_("Fighter's name"), required=False, max_length=40)
            self.fields[f"seat{i}_wins"] = forms.IntegerField(
                label=_("Tournament wins"), min_value=0, max_value=5, initial=0, required=False
            )
            for attribute, label, initial in (
                ("health", _("Health"), 2),
                ("speed", _("Speed"), 3),
                ("accuracy", _("Accuracy"), 2),
            ):
                self.fields[f"seat{i}_{attribute}"] = forms.TypedChoiceField(
                    label=label, choices=ATTRIBUTE, coerce=int, initial=initial, required=False
                )

    def seat_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "number": i + 1,
                "kind": self[f"seat{i}_kind"],
                "username": self[f"seat{i}_username"],
                "name": self[f"seat{i}_name"],
                "health": self[f"seat{i}_health"],
                "speed": self[f"seat{i}_speed"],
                "accuracy": self[f"seat{i}_accuracy"],
                "wins": self[f"seat{i}_wins"],
            }
            for i in range(MAX_SEATS)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        seats = []
        for i in range(MAX_SEATS):
            kind = data.get(f"seat{i}_kind") or ""
            if not kind:
                continue
            values = [data.get(f"seat{i}_{a}") or 0 for a in ("health", "speed", "accuracy")]
            wins = data.get(f"seat{i}_wins") or 0
            # « En tournoi, gagner une partie permet d'augmenter les capacités » : one more point per win.
            if sum(values) != 7 + wins:
                self.add_error(
                    f"seat{i}_health",
                    _("Health, Speed and Accuracy must add up to %(total)s (7 plus one per tournament win).")
                    % {"total": 7 + wins},
                )
            user = None
            if kind == "user":
                username = (data.get(f"seat{i}_username") or "").strip()
                user = User.objects.filter(username=username).first()
                if user is None:
                    self.add_error(f"seat{i}_username", _("No player with that username."))
            default = _("Bot %(number)s") % {"number": i + 1} if kind in ("heuristic", "random", "search") else ""
            seats.append(
                {
                    "kind": kind,
                    "user": user,
                    "name": (data.get(f"seat{i}_name") or "").strip() or default,
                    "health": values[0],
                    "speed": values[1],
                    "accuracy": values[2],
                    "wins": wins,
                }
            )
        if not 2 <= len(seats) <= MAX_SEATS:
            raise forms.ValidationError(_("A game of Frag takes 2 to 6 fighters."))
        data["seats"] = seats
        return data
