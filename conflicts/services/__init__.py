"""Use cases of conflicts: scenes, sequences, participants, draws, Atouts during a draw, Fudge tests;
one module per concept, and callers import from the concept's module.

Each one runs in a transaction, locks the sequence (and the decks it deals from, in a fixed order),
checks the sequence's ``version`` when the caller acted from a page that may be stale, and appends one
Event holding every card or die.
"""
