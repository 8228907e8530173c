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


class ContentError(ValueError):
    """A map or card file that does not validate; the message names the file and the place."""
