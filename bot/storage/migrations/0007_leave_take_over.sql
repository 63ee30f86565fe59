-- Leaving a running game and taking over a computer's seat (who counts for the league).
--
-- `assisted` marks a seat not played by one person from the deal to the end: a computer
-- stand-in moved for it, its person left, or someone took it over. A game with such a seat
-- (or with a computer player, or a person who left) moves no rating.
--
-- `leavers` keeps who left a running game, from which seat: their seat becomes a computer
-- player's (which someone else may take over), and the league counts the game as a forfeit
-- for them once it finishes. A person who asks to be forgotten loses these rows too.

ALTER TABLE seats ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0 CHECK (assisted IN (0, 1));

CREATE TABLE leavers (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL,
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    display_name TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

ALTER TABLE league_players ADD COLUMN forfeits INTEGER NOT NULL DEFAULT 0 CHECK (forfeits >= 0);
