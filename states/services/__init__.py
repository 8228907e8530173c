"""Use cases of the Savage-style states, one module per concept; callers import from the concept's module."""
