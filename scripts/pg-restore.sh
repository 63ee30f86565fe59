#!/bin/sh
# Restore a dump of scripts/pg-backup.sh into an EMPTY database: scripts/pg-restore.sh DUMP URL
#
# Create the database first (createdb, or CREATE DATABASE), stop every bot process that
# uses the old one, restore, then point DATABASE_URL at the new database. The restore is one
# transaction (--single-transaction) and stops at the first error, so it is all there or
# not at all. The bot applies any newer migration of its own at its next start.
set -eu
if [ $# -ne 2 ]; then
    echo "usage: $0 DUMP postgresql://URL-of-an-empty-database" >&2
    exit 2
fi
pg_restore --no-owner --no-privileges --single-transaction --exit-on-error --dbname="$2" "$1"
echo "restored $1"
