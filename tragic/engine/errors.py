from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules refuse. The state it was applied to is unchanged.

    ``code`` is stable (the web layer translates it). ``template`` is a short English sentence with
    ``{named}`` blanks filled from ``params``; ``reason`` is the sentence filled in (for logs, tests and
    bots). The web layer translates the template (tragic/refusals.py).
    """

    def __init__(self, code: str, template: str, **params: object) -> None:
        self.code = code
        self.template = template
        self.params = params
        self.reason = template.format(**params)
        super().__init__(self.reason)


class Problem(str):
    """Why a check fails: the filled-in English sentence (a plain ``str``), with its template and params.

    The checks shared by ``legal_actions`` and ``apply`` return one; a refusal built from it keeps the
    template, so that the web layer can still translate it.
    """

    template: str
    params: dict[str, object]

    def __new__(cls, template: str, **params: object) -> Problem:
        problem = super().__new__(cls, template.format(**params))
        problem.template = template
        problem.params = params
        return problem


def refuse(code: str, template: str | Problem, **params: object) -> IllegalAction:
    """A refusal: an English template with its ``{named}`` blanks, or a :class:`Problem` of a check."""
    if isinstance(template, Problem):
        return IllegalAction(code, template.template, **template.params)
    return IllegalAction(code, template, **params)
