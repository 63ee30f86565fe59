-- Games with their seats, action logs, snapshots, round results and final standings,
-- and the per-server league (seasons and per-player figures).
--
-- Players of one game are referred to by seat number everywhere but in `seats`, so that
-- deleting a person's data only has to touch their seat rows and their league rows.
-- Times are ISO 8601 text in UTC.

CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    host_id      INTEGER,                -- NULL once the host asked for their data to go
    ruleset      TEXT NOT NULL,          -- Ruleset.to_json()
    seed         INTEGER NOT NULL,
    status       TEXT NOT NULL DEFAULT 'active'
                 CHECK (status IN ('active', 'finished', 'abandoned')),
    created_at   TEXT NOT NULL,
    finished_at  TEXT,                   -- when it finished or was abandoned
    season       INTEGER,                -- the league season a finished game counted in
    action_count INTEGER NOT NULL DEFAULT 0 CHECK (action_count >= 0),
    snapshot     TEXT NOT NULL,          -- Game.to_json() after action number action_count
    CHECK ((status = 'active') = (finished_at IS NULL))
);
-- One live game per channel: the database refuses a second even if the code forgets.
CREATE UNIQUE INDEX games_live_per_channel ON games (channel_id) WHERE status = 'active';
CREATE INDEX games_by_guild ON games (guild_id, finished_at);

CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    player_id    TEXT NOT NULL,          -- the engine's id: str(user_id) or 'cpu-N'
    kind         TEXT NOT NULL CHECK (kind IN ('human', 'computer')),
    user_id      INTEGER,                -- NULL for computers and for deleted players
    display_name TEXT NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, player_id),
    CHECK (kind = 'human' OR user_id IS NULL)
) WITHOUT ROWID;
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    action     TEXT NOT NULL,            -- action_to_json()
    created_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

CREATE TABLE rounds (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    round_no   INTEGER NOT NULL CHECK (round_no >= 1),
    reason     TEXT NOT NULL,            -- RoundEnd: went_out, ended, blocked
    ender_seat INTEGER,
    PRIMARY KEY (game_id, round_no)
) WITHOUT ROWID;

CREATE TABLE round_seats (
    game_id      INTEGER NOT NULL,
    round_no     INTEGER NOT NULL,
    seat         INTEGER NOT NULL,
    hand         TEXT NOT NULL,          -- card codes left in hand, space separated
    hand_value   INTEGER NOT NULL,
    placed_value INTEGER NOT NULL,
    points       INTEGER NOT NULL,
    total        INTEGER NOT NULL,
    PRIMARY KEY (game_id, round_no, seat),
    FOREIGN KEY (game_id, round_no) REFERENCES rounds (game_id, round_no) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE TABLE standings (
    game_id    INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    place      INTEGER NOT NULL CHECK (place >= 1),
    score      INTEGER NOT NULL,
    rounds_won INTEGER NOT NULL CHECK (rounds_won >= 0),
    PRIMARY KEY (game_id, seat),
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE TABLE seasons (
    guild_id   INTEGER NOT NULL,
    number     INTEGER NOT NULL CHECK (number >= 1),
    started_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, number)
) WITHOUT ROWID;

CREATE TABLE league_players (
    guild_id       INTEGER NOT NULL,
    season         INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    display_name   TEXT NOT NULL,
    games          INTEGER NOT NULL DEFAULT 0,
    wins           INTEGER NOT NULL DEFAULT 0,
    rounds_won     INTEGER NOT NULL DEFAULT 0,
    points_for     INTEGER NOT NULL DEFAULT 0,
    points_against INTEGER NOT NULL DEFAULT 0,
    place_sum      INTEGER NOT NULL DEFAULT 0,
    rated_games    INTEGER NOT NULL DEFAULT 0,
    mu             REAL NOT NULL,
    sigma          REAL NOT NULL,
    PRIMARY KEY (guild_id, season, user_id),
    FOREIGN KEY (guild_id, season) REFERENCES seasons (guild_id, number) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX league_players_by_user ON league_players (user_id);
