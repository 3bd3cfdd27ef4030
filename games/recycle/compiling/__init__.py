"""The tree to closures over a RecycleState: decks, values, cards and collections, filters, groups, the
fast paths, choices and actions, and the program they make.
"""
