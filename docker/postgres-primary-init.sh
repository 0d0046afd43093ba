#!/bin/bash
# Lets the compose replica stream from the primary (trust inside the compose network only), through a
# physical replication slot: the primary keeps the WAL the replica has not received (bounded by
# max_slot_wal_keep_size in compose.yml), so a lagging or restarted replica catches up instead of
# needing a new base backup. Runs once, when the primary's data directory is initialised.
set -e
echo "host replication postgres all trust" >> "$PGDATA/pg_hba.conf"
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -c "SELECT pg_create_physical_replication_slot('replica1')"
