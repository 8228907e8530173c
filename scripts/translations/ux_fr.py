"""French translations of the table-side usability pass (phones, live updates, wording)."""

# ruff: noqa: E501

T = {
    "%(deck)s:": "%(deck)s\u00a0:",
    "%(deck)s · %(player)s:": "%(deck)s · %(player)s\u00a0:",
}
