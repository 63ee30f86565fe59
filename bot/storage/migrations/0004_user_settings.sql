-- Each person's own choices, whatever the server. `notify`: 'away' when they asked to be
-- told of their turn only when they have been away from the game for a while (the default,
-- every turn, has no row).

CREATE TABLE user_settings (
    user_id INTEGER PRIMARY KEY,
    notify  TEXT NOT NULL CHECK (notify IN ('away'))
) WITHOUT ROWID;
