-- Shard leases, and the fencing that refuses a game write from a process that no longer
-- holds the shard of the game's server.
--
-- A process owns a shard while its row here names it (`owner`, the process's identity
-- host:pid:random) and has not expired. Expiry times are the database's own clock, so the
-- machines' clocks never need to agree. `generation` grows by one each time the holder
-- changes: the fencing counter shown in the logs.
--
-- Every connection of a process carries its identity as the setting `rummy.owner` (the
-- URL's `options=-c rummy.owner=…`). The triggers below refuse, with SQLSTATE RLEAS, a
-- write to a game of a shard that connection's process does not hold now. They read the
-- lease row FOR SHARE, so a process taking the shard over waits for writes in flight and
-- every write committed before the takeover was made by the holder of the time.
--
-- A database where no process ever held a lease (no row at all: tools, tests of the
-- storage alone) is not fenced. The bot itself always runs the lease keeper on PostgreSQL,
-- a lone process too, so its database has rows from its first start.

CREATE TABLE shard_leases (
    shard_id    integer PRIMARY KEY CHECK (shard_id >= 0),
    shard_count integer NOT NULL CHECK (shard_id < shard_count),
    owner       text NOT NULL,
    generation  bigint NOT NULL CHECK (generation >= 1),
    expires_at  timestamptz NOT NULL
);

-- Claims of processes waiting for a shard named in their own SHARD_IDS: the holder that
-- took the shard over from a dead process hands it back once its configured owner is back.
CREATE TABLE shard_claims (
    shard_id   integer PRIMARY KEY,
    owner      text NOT NULL,
    claimed_at timestamptz NOT NULL
);

CREATE FUNCTION rummy_fence(guild bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    me text := nullif(current_setting('rummy.owner', true), '');
    shards integer;
    shard integer;
    holder text;
    until timestamptz;
BEGIN
    SELECT shard_count INTO shards FROM shard_leases LIMIT 1;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    shard := (guild >> 22) % shards;
    SELECT owner, expires_at INTO holder, until FROM shard_leases
        WHERE shard_id = shard FOR SHARE;
    IF NOT FOUND OR me IS NULL OR holder <> me OR until <= clock_timestamp() THEN
        RAISE EXCEPTION USING
            ERRCODE = 'RLEAS',
            MESSAGE = format('lease lost: shard %s (server %s) is not held by %s',
                             shard, guild, coalesce(me, 'a connection without rummy.owner'));
    END IF;
END
$$;

CREATE FUNCTION rummy_fence_game() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM rummy_fence(NEW.guild_id);
    RETURN NEW;
END
$$;

CREATE FUNCTION rummy_fence_game_row() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    guild bigint;
BEGIN
    SELECT guild_id INTO guild FROM games WHERE id = NEW.game_id;
    IF FOUND THEN
        PERFORM rummy_fence(guild);
    END IF;
    RETURN NEW;
END
$$;

-- A new lobby or game, and every change of a game's play: its status, its snapshot and
-- action count, its deal, its channel. (A person's deletion only blanks names and hosts,
-- which any process may do.)
CREATE TRIGGER games_fenced_insert BEFORE INSERT ON games
    FOR EACH ROW EXECUTE FUNCTION rummy_fence_game();
CREATE TRIGGER games_fenced_update
    BEFORE UPDATE OF status, snapshot, action_count, seed, channel_id ON games
    FOR EACH ROW EXECUTE FUNCTION rummy_fence_game();
-- The action log, the round results, who plays which seat, and the turn timer's deadline.
CREATE TRIGGER actions_fenced BEFORE INSERT ON actions
    FOR EACH ROW EXECUTE FUNCTION rummy_fence_game_row();
CREATE TRIGGER rounds_fenced BEFORE INSERT ON rounds
    FOR EACH ROW EXECUTE FUNCTION rummy_fence_game_row();
CREATE TRIGGER seats_fenced_insert BEFORE INSERT ON seats
    FOR EACH ROW EXECUTE FUNCTION rummy_fence_game_row();
CREATE TRIGGER seats_fenced_update BEFORE UPDATE OF kind, stand_in, missed ON seats
    FOR EACH ROW EXECUTE FUNCTION rummy_fence_game_row();
CREATE TRIGGER turn_deadlines_fenced BEFORE INSERT OR UPDATE ON turn_deadlines
    FOR EACH ROW EXECUTE FUNCTION rummy_fence_game_row();
