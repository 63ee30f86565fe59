-- When the slash commands were last registered with Discord, per application and scope:
-- `scope` 0 is the global commands, any other value the server (DEV_GUILD_ID) that holds a
-- copy of them. `digest` is the SHA-256 of exactly what was sent, so a start with the same
-- commands sends nothing; the record lives in the database (it used to be a file beside
-- it) so that the one process that syncs, on a database several share, reads what any
-- process synced before.
CREATE TABLE command_sync (
    application_id INTEGER NOT NULL,
    scope          INTEGER NOT NULL,
    digest         TEXT NOT NULL,
    synced_at      TEXT NOT NULL,
    PRIMARY KEY (application_id, scope)
) WITHOUT ROWID;
