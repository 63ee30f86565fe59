-- Play again, the queue for the next game and lobbies that close themselves.
--
-- `rematch_id`: the lobby Play again opened from this finished game (NULL: none yet), so a
-- second click, even after a restart, opens nothing more. `touched_at`: a lobby's last
-- join, leave or added computer (NULL: nobody came or went since `created_at`), from which
-- its idle deadline is computed again after a restart.
ALTER TABLE games ADD COLUMN rematch_id INTEGER;
ALTER TABLE games ADD COLUMN touched_at TEXT;

-- People waiting for the next game of a running one: Play again seats them while seats
-- remain. The rows go with their game.
CREATE TABLE queue (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL,
    display_name TEXT NOT NULL,
    queued_at    TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
CREATE INDEX queue_by_user ON queue (user_id);
