"""Savage-style states: trait rolls, their exact odds and the state cards (../shared/seeds/004).

Pure Python: plain values in, frozen dataclasses out, a ``random.Random`` passed in, and an
``IllegalTransition`` with a reason for anything the cards forbid.
"""
