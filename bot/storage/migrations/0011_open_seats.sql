-- Whether people not seated may take over the seats of the computer players the host added
-- (chosen with /rummy new). A seat a computer plays for a person who left is takeable
-- whatever this says.
ALTER TABLE games ADD COLUMN open_seats INTEGER NOT NULL DEFAULT 0;
