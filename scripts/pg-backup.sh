#!/bin/sh
# Online backup of the bot's PostgreSQL database: scripts/pg-backup.sh DEST [URL]
#
# pg_dump takes one consistent snapshot inside a read transaction, so it is safe while the
# bot (one process or several) keeps playing. The custom format (-Fc) is compressed and is
# what scripts/pg-restore.sh reads. URL defaults to DATABASE_URL. The dump holds people's
# ids, names and game history: it is written owner-only, under a temporary name first, and
# renamed to DEST only once pg_dump succeeded, so a failed backup never leaves a file under
# the name an operator would restore from.
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 DEST [postgresql://URL]  (URL defaults to DATABASE_URL)" >&2
    exit 2
fi
dest=$1
url=${2:-${DATABASE_URL:-}}
if [ -z "$url" ]; then
    echo "$0: give the database URL or set DATABASE_URL" >&2
    exit 2
fi
umask 077
partial="$dest.partial"
trap 'rm -f "$partial"' EXIT
pg_dump --format=custom --no-owner --no-privileges --file="$partial" --dbname="$url"
mv "$partial" "$dest"
trap - EXIT
echo "backed up to $dest"
