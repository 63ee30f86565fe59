#!/bin/sh
# Online backup of the bot's PostgreSQL database: scripts/pg-backup.sh DEST [URL]
#
# pg_dump takes one consistent snapshot inside a read transaction, so it is safe while the
# bot (one process or several) keeps playing. The custom format (-Fc) is compressed and is
# what scripts/pg-restore.sh reads. URL defaults to DATABASE_URL, read as the bot reads it:
# from the environment, else from .env. The dump holds people's ids, names and game history:
# it is written owner-only, under a temporary name first, and renamed to DEST only once
# pg_dump succeeded, so a failed backup never leaves a file under the name an operator would
# restore from. The work is scripts/backup.py's (`make backup` runs it too), which hands the
# password to pg_dump in its environment, never on a command line others can read.
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 DEST [postgresql://URL]  (URL defaults to DATABASE_URL, or .env's)" >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
python="$root/.venv/bin/python"
if [ ! -x "$python" ]; then
    echo "$0: $python is missing: run 'make -C $root .venv/.run-installed' first" >&2
    exit 2
fi
if [ $# -eq 2 ]; then
    DATABASE_URL=$2 exec "$python" "$root/scripts/backup.py" --postgresql "$1"
fi
exec "$python" "$root/scripts/backup.py" --postgresql "$1"
