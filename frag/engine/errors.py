"""The engine's errors: a refused action, and content files that do not load."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules refuse; the state is unchanged.

    ``template`` is a short English sentence with ``{named}`` blanks filled from ``params``;
    ``reason`` is the sentence filled in. The web layer translates the template (frag/refusals.py).
    """

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params = params
        self.reason = template.format(**params)
        super().__init__(self.reason)


Refusal = tuple[str, dict[str, object]]


def refusal(template: str, **params: object) -> Refusal:
    """An ``IllegalAction``'s template and blanks, not yet raised: for checks asked at every step of the legal
    actions, where raising and catching would cost more than the check."""
    return template, params


class ContentError(ValueError):
    """A map or card file that does not validate; the message names the file and the place."""
