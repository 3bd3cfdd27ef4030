"""The game behind the contract: the state and its JSON, play from choice to choice within bounds, who
sees what, the table's extras, the bots, and the checks that a game plays.
"""
