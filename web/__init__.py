"""The web table: a page per game, live over a WebSocket, served inside the bot's process.

It stands above the sessions beside the Discord adapters: moves go through the same
:class:`~bot.sessions.Session` methods the slash commands use, and each page hears the same
committed events the Discord display shows. It never reads the store, and what a connection
receives is built from the engine's view for that person (a spectator's has no hand).
"""
