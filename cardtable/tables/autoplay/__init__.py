"""The turns the server plays: bots, stand-ins for absent humans, the clock's timeouts, tables that end."""
