"""Text to a checked tree: the grammar, parsing within bounds, blog listings, the forms' kinds, and the
hints for what CardStock's files get wrong.
"""
