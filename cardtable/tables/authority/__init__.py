"""The table's authority: every change to a table in one locked transaction, and what a seat may see."""
