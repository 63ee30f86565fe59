-- When the slash commands were last registered with Discord, per application and scope:
-- `scope` 0 is the global commands, any other value the server (DEV_GUILD_ID) that holds a
-- copy of them. `digest` is the SHA-256 of exactly what was sent, so a start with the same
-- commands sends nothing, whichever of the processes sharing the database starts.
CREATE TABLE command_sync (
    application_id BIGINT NOT NULL,
    scope          BIGINT NOT NULL,
    digest         TEXT NOT NULL,
    synced_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (application_id, scope)
);
