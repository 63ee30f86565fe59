-- A turn's deadline as the time left when it was stored, and when that was by the
-- database's own clock (Unix seconds), instead of a moment of the writing machine's clock:
-- a process whose clock is off (another machine taking a game over) then neither ends the
-- turn early nor late. A running deadline keeps the time it had left.

ALTER TABLE turn_deadlines ADD COLUMN seconds_left DOUBLE PRECISION;
ALTER TABLE turn_deadlines ADD COLUMN stored_at DOUBLE PRECISION;
ALTER TABLE turn_deadlines DISABLE TRIGGER turn_deadlines_fenced;
UPDATE turn_deadlines SET
    seconds_left = EXTRACT(EPOCH FROM deadline - clock_timestamp()),
    stored_at = EXTRACT(EPOCH FROM clock_timestamp());
ALTER TABLE turn_deadlines ENABLE TRIGGER turn_deadlines_fenced;
ALTER TABLE turn_deadlines ALTER COLUMN seconds_left SET NOT NULL;
ALTER TABLE turn_deadlines ALTER COLUMN stored_at SET NOT NULL;
ALTER TABLE turn_deadlines DROP COLUMN deadline;
