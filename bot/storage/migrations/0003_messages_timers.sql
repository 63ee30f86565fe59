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

-- Turn timers: the minutes a turn may take (0: no timer), chosen when the table is opened.
ALTER TABLE games ADD COLUMN turn_timer INTEGER NOT NULL DEFAULT 0 CHECK (turn_timer >= 0);

-- The running turn's deadline of each live game with a timer, so a deadline that passed while
-- the bot was down is acted on at start-up. `reminded`: the half-time reminder went out.
CREATE TABLE turn_deadlines (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    turn     INTEGER NOT NULL,
    player   TEXT NOT NULL,
    deadline TEXT NOT NULL,
    reminded INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1))
) WITHOUT ROWID;

-- Turns in a row a person let the timer play, and the level of the computer player that
-- holds their seat after three (NULL: the person plays).
ALTER TABLE seats ADD COLUMN missed INTEGER NOT NULL DEFAULT 0 CHECK (missed >= 0);
ALTER TABLE seats ADD COLUMN stand_in TEXT CHECK (stand_in IS NULL OR kind = 'human');
