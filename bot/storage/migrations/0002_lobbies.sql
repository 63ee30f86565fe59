-- Lobbies: a game is stored from the moment its host opens the table, before the deal, so
-- joining, leaving and the options survive a restart.
--
-- `games` is rebuilt (SQLite cannot change a CHECK constraint in place) with:
--   - the statuses 'lobby' (seats being taken, nothing dealt) and 'cancelled' (a lobby
--     called off: no history, no league);
--   - no snapshot before the deal;
--   - ids that are never reused (AUTOINCREMENT), since buttons carry a game id and must
--     never reach another game after theirs was deleted;
--   - the one-live-game-per-channel index covering lobbies as well as games in play.
-- Migrations run with foreign keys off and are checked before their commit.

CREATE TABLE games_new (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    host_id      INTEGER,                -- NULL once the host asked for their data to go
    ruleset      TEXT NOT NULL,          -- Ruleset.to_json(): the options chosen for the table
    seed         INTEGER NOT NULL,
    status       TEXT NOT NULL
                 CHECK (status IN ('lobby', 'active', 'finished', 'abandoned', 'cancelled')),
    created_at   TEXT NOT NULL,
    finished_at  TEXT,                   -- when it finished, was abandoned or cancelled
    season       INTEGER,                -- the league season a finished game counted in
    action_count INTEGER NOT NULL DEFAULT 0 CHECK (action_count >= 0),
    snapshot     TEXT,                   -- Game.to_json() after action number action_count
    CHECK ((status IN ('lobby', 'active')) = (finished_at IS NULL)),
    CHECK ((snapshot IS NULL) = (status IN ('lobby', 'cancelled')))
);
INSERT INTO games_new (id, guild_id, channel_id, host_id, ruleset, seed, status, created_at,
                       finished_at, season, action_count, snapshot)
    SELECT id, guild_id, channel_id, host_id, ruleset, seed, status, created_at,
           finished_at, season, action_count, snapshot
    FROM games;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
CREATE UNIQUE INDEX games_live_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_guild ON games (guild_id, finished_at);

-- A computer seat's strength; people have none.
ALTER TABLE seats ADD COLUMN level TEXT CHECK (level IS NULL OR kind = 'computer');
