-- A person's erasure when several processes share the database.
--
-- A game that is over (finished, abandoned, cancelled) is history: no process keeps it in
-- memory, so the process that received the erasure may anonymize it whatever its server's
-- shard. The fencing of 0003 refused that; from now on a write to such a game passes as
-- long as it stays over (history is never brought back to life). A lobby or a game in play
-- stays fenced exactly as before: only its shard's holder writes it.

CREATE OR REPLACE FUNCTION rummy_fence_game() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE'
       AND OLD.status NOT IN ('lobby', 'active')
       AND NEW.status = OLD.status THEN
        RETURN NEW;
    END IF;
    PERFORM rummy_fence(NEW.guild_id);
    RETURN NEW;
END
$$;

-- The live games a person sits in on shards the receiving process does not hold are their
-- holders' to end. The receiver leaves a row per such shard and NOTIFYs its channel
-- (rummy_shard_<n>, payload 'erase:<user id>'); the holder erases the person from its
-- games and deletes the row. A shard nobody holds keeps its row until a process takes it:
-- taking a shard sweeps its rows. A repeated request only moves requested_at forward.
CREATE TABLE erasure_requests (
    user_id      bigint NOT NULL,
    shard_id     integer NOT NULL CHECK (shard_id >= 0),
    requested_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (user_id, shard_id)
);
CREATE INDEX erasure_requests_by_shard ON erasure_requests (shard_id);
