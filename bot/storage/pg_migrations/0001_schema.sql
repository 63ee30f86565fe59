-- The whole schema of SQLite migrations 0001-0009, in PostgreSQL's types: snowflakes and
-- seeds BIGINT, ratings DOUBLE PRECISION, game ids an identity (never reused: buttons carry
-- a game id and must never reach another game after theirs was deleted), times timestamptz,
-- flags smallints checked to 0 or 1 (the repository's statements write 0 and 1 on both back
-- ends). JSON values stay text, read and written by the program as on SQLite.
--
-- Players of one game are referred to by seat number everywhere but in `seats`, so that
-- deleting a person's data only has to touch their seat rows and their league rows.

CREATE TABLE games (
    id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    guild_id         BIGINT NOT NULL,
    channel_id       BIGINT NOT NULL,     -- where the game lives (its thread, if it has one)
    host_id          BIGINT,              -- NULL once the host asked for their data to go
    ruleset          TEXT NOT NULL,       -- Ruleset.to_json(): the options chosen
    seed             BIGINT NOT NULL,
    status           TEXT NOT NULL
                     CHECK (status IN ('lobby', 'active', 'finished', 'abandoned', 'cancelled')),
    created_at       TIMESTAMPTZ NOT NULL,
    finished_at      TIMESTAMPTZ,         -- when it finished, was abandoned or cancelled
    season           INTEGER,             -- the league season a finished game counted in
    action_count     INTEGER NOT NULL DEFAULT 0 CHECK (action_count >= 0),
    snapshot         TEXT,                -- Game.to_json() after action number action_count
    turn_timer       INTEGER NOT NULL DEFAULT 0 CHECK (turn_timer >= 0),
    lobby_channel_id BIGINT,              -- the channel of the lobby message, if moved
    rematch_id       BIGINT,              -- the lobby Play again opened from it
    touched_at       TIMESTAMPTZ,         -- a lobby's last join, leave or added computer
    CHECK ((status IN ('lobby', 'active')) = (finished_at IS NULL)),
    CHECK ((snapshot IS NULL) = (status IN ('lobby', 'cancelled')))
);
-- One live game per channel: the database refuses a second even if the code forgets.
CREATE UNIQUE INDEX games_live_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_guild ON games (guild_id, finished_at);

CREATE TABLE seats (
    game_id      BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    player_id    TEXT NOT NULL,           -- the engine's id: str(user_id) or 'cpu-N'
    kind         TEXT NOT NULL CHECK (kind IN ('human', 'computer')),
    user_id      BIGINT,                  -- NULL for computers and for deleted players
    display_name TEXT NOT NULL,
    level        TEXT CHECK (level IS NULL OR kind = 'computer'),
    missed       INTEGER NOT NULL DEFAULT 0 CHECK (missed >= 0),
    stand_in     TEXT CHECK (stand_in IS NULL OR kind = 'human'),
    assisted     SMALLINT NOT NULL DEFAULT 0 CHECK (assisted IN (0, 1)),
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, player_id),
    CHECK (kind = 'human' OR user_id IS NULL)
);
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE actions (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    action     TEXT NOT NULL,             -- action_to_json()
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE rounds (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    round_no   INTEGER NOT NULL CHECK (round_no >= 1),
    reason     TEXT NOT NULL,             -- RoundEnd: went_out, ended, blocked
    ender_seat INTEGER,
    PRIMARY KEY (game_id, round_no)
);

CREATE TABLE round_seats (
    game_id      BIGINT NOT NULL,
    round_no     INTEGER NOT NULL,
    seat         INTEGER NOT NULL,
    hand         TEXT NOT NULL,           -- card codes left in hand, space separated
    hand_value   INTEGER NOT NULL,
    placed_value INTEGER NOT NULL,
    points       INTEGER NOT NULL,
    total        INTEGER NOT NULL,
    PRIMARY KEY (game_id, round_no, seat),
    FOREIGN KEY (game_id, round_no) REFERENCES rounds (game_id, round_no) ON DELETE CASCADE
);

CREATE TABLE standings (
    game_id    BIGINT NOT NULL,
    seat       INTEGER NOT NULL,
    place      INTEGER NOT NULL CHECK (place >= 1),
    score      INTEGER NOT NULL,
    rounds_won INTEGER NOT NULL CHECK (rounds_won >= 0),
    PRIMARY KEY (game_id, seat),
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat) ON DELETE CASCADE
);

CREATE TABLE seasons (
    guild_id   BIGINT NOT NULL,
    number     INTEGER NOT NULL CHECK (number >= 1),
    started_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (guild_id, number)
);

CREATE TABLE league_players (
    guild_id       BIGINT NOT NULL,
    season         INTEGER NOT NULL,
    user_id        BIGINT NOT NULL,
    display_name   TEXT NOT NULL,
    games          INTEGER NOT NULL DEFAULT 0,
    wins           INTEGER NOT NULL DEFAULT 0,
    rounds_won     INTEGER NOT NULL DEFAULT 0,
    points_for     INTEGER NOT NULL DEFAULT 0,
    points_against INTEGER NOT NULL DEFAULT 0,
    place_sum      INTEGER NOT NULL DEFAULT 0,
    rated_games    INTEGER NOT NULL DEFAULT 0,
    mu             DOUBLE PRECISION NOT NULL,
    sigma          DOUBLE PRECISION NOT NULL,
    forfeits       INTEGER NOT NULL DEFAULT 0 CHECK (forfeits >= 0),
    PRIMARY KEY (guild_id, season, user_id),
    FOREIGN KEY (guild_id, season) REFERENCES seasons (guild_id, number) ON DELETE CASCADE
);
CREATE INDEX league_players_by_user ON league_players (user_id);

-- The Discord messages that show each game, so a restarted bot edits them again.
CREATE TABLE messages (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('lobby', 'table', 'ping', 'hand')),
    player     TEXT NOT NULL DEFAULT '' CHECK ((kind = 'hand') = (player <> '')),
    channel_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    PRIMARY KEY (game_id, kind, player)
);

-- The running turn's deadline of each live game with a timer.
CREATE TABLE turn_deadlines (
    game_id  BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    turn     INTEGER NOT NULL,
    player   TEXT NOT NULL,
    deadline TIMESTAMPTZ NOT NULL,
    reminded SMALLINT NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1))
);

-- Settings kept by name, `value` JSON text (checked to parse).
CREATE TABLE server_settings (
    guild_id BIGINT NOT NULL,
    name     TEXT NOT NULL CHECK (name <> ''),
    value    TEXT NOT NULL CHECK (value::jsonb IS NOT NULL),
    PRIMARY KEY (guild_id, name)
);

CREATE TABLE personal_settings (
    user_id BIGINT NOT NULL,
    name    TEXT NOT NULL CHECK (name <> ''),
    value   TEXT NOT NULL CHECK (value::jsonb IS NOT NULL),
    PRIMARY KEY (user_id, name)
);

-- Servers the bot was removed from, and when (erased after a grace period).
CREATE TABLE guild_departures (
    guild_id BIGINT PRIMARY KEY,
    left_at  TIMESTAMPTZ NOT NULL
);

-- Who left a running game, from which seat (a league forfeit once it finishes).
CREATE TABLE leavers (
    game_id      BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id      BIGINT NOT NULL,
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    display_name TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

-- People waiting for the next game of a running one.
CREATE TABLE queue (
    game_id      BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id      BIGINT NOT NULL,
    display_name TEXT NOT NULL,
    queued_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX queue_by_user ON queue (user_id);
