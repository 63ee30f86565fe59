-- Servers the bot was removed from, and when: their data is erased after a grace period
-- (a restart meanwhile still does it), and the row goes if the bot is added back before.

CREATE TABLE guild_departures (
    guild_id INTEGER PRIMARY KEY,
    left_at  TEXT NOT NULL
) WITHOUT ROWID;
