"""Reads for the Frag pages: what one seat sees of a game, ready for the templates.

Everything here starts from ``State.observation(seat)`` and ``legal_actions(seat)``: a hand or a
deck order the seat may not see never reaches a template. Each module is one concept; import from it.
"""
