-- A turn's deadline as the time left when it was stored, and when that was by the
-- database's own clock (Unix seconds), instead of a moment of the writing machine's clock:
-- a process whose clock is off (another machine taking a game over, a restored copy) then
-- neither ends the turn early nor late. A running deadline keeps the time it had left.

CREATE TABLE turn_deadlines_left (
    game_id      INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    turn         INTEGER NOT NULL,
    player       TEXT NOT NULL,
    seconds_left REAL NOT NULL,
    stored_at    REAL NOT NULL,
    reminded     INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1))
) WITHOUT ROWID;

INSERT INTO turn_deadlines_left (game_id, turn, player, seconds_left, stored_at, reminded)
SELECT game_id, turn, player, (julianday(deadline) - julianday('now')) * 86400.0,
       (julianday('now') - 2440587.5) * 86400.0, reminded
FROM turn_deadlines;

DROP TABLE turn_deadlines;
ALTER TABLE turn_deadlines_left RENAME TO turn_deadlines;
