-- Each person's own settings, kept like a server's: one row per setting they changed from
-- its default, `value` JSON, so a new setting (a four-colour deck, light pictures, sorting
-- by rank) is a new name, never a new table or column. Names the program does not know are
-- ignored. The one setting of the old table (told of their turn only when away) moves here.
CREATE TABLE personal_settings (
    user_id INTEGER NOT NULL,
    name    TEXT NOT NULL CHECK (name <> ''),
    value   TEXT NOT NULL CHECK (json_valid(value)),
    PRIMARY KEY (user_id, name)
) WITHOUT ROWID;

INSERT INTO personal_settings (user_id, name, value)
    SELECT user_id, 'notify_when_away', 'true' FROM user_settings WHERE notify = 'away';

DROP TABLE user_settings;
