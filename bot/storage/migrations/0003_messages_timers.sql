-- The Discord messages that show each game, so that a restarted bot edits the same table,
-- lobby and hand messages instead of posting new ones.
--
-- `kind` is 'lobby', 'table', 'ping' (the turn notice) or 'hand' (a player's hand in their
-- DMs); `player` is the engine's player id for hands and '' otherwise. `channel_id` is the
-- channel the message lives in (the DM channel for hands).

CREATE TABLE messages (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('lobby', 'table', 'ping', 'hand')),
    player     TEXT NOT NULL DEFAULT '' CHECK ((kind = 'hand') = (player <> '')),
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, kind, player)
) WITHOUT ROWID;
