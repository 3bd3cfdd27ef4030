"""The table app: tables, seats, the move log, chat, the move service and the bot driver."""
