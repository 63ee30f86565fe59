-- Clicks handed from the process that received them (Discord sends every DM interaction to
-- shard 0) to the process that owns the game's shard. The interaction's id is the key: one
-- interaction is forwarded once, and the owner claims it by deleting its row, so exactly one
-- process ever applies it. Rows are short-lived: claimed within a second, or claimed back by
-- the receiver after ~2.5 s and answered "not answering".
CREATE TABLE forwarded_clicks (
    interaction_id bigint PRIMARY KEY,
    shard          integer NOT NULL CHECK (shard >= 0),
    payload        jsonb NOT NULL,          -- the INTERACTION_CREATE payload as received
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX forwarded_clicks_by_shard ON forwarded_clicks (shard, created_at);
