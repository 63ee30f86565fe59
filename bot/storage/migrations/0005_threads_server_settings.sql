-- A game in a thread of its own: `channel_id` is where the game lives (the thread started
-- from its lobby message, so one live game per thread), and `lobby_channel_id` the text
-- channel that holds the lobby message (NULL: the game plays where its lobby is). The
-- parent channel is then free for another table.
ALTER TABLE games ADD COLUMN lobby_channel_id INTEGER;

-- Per-server settings, one row per setting a server changed from its default: `value` is
-- JSON, so a new setting (a default variant, a turn timer, who may open tables) is a new
-- name, never a new table or column. Names the program does not know are ignored.
CREATE TABLE server_settings (
    guild_id INTEGER NOT NULL,
    name     TEXT NOT NULL CHECK (name <> ''),
    value    TEXT NOT NULL CHECK (json_valid(value)),
    PRIMARY KEY (guild_id, name)
) WITHOUT ROWID;
