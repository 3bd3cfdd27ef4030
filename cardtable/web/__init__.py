"""The pages people see: the lobby and the table, server-rendered, driven by static/js."""
