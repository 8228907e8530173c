"""Use cases of the characters app, one module per concept; callers import from the concept's module.

Each use case is atomic, locks the sheet it changes, checks the rules in ``characters.rules`` and appends
one Event (``character.*``) through ``campaigns.services.event_append``. Refusals raise
``core.errors.ServiceError`` (``PermissionRefused``, ``StaleState``) with a message in the user's language
that names the broken rule, and change nothing.

The interface other apps use: ``atouts.atout_spend``, ``atouts.atout_gain``, ``revers.revers_inflict``,
``revers.revers_heal``.
"""
