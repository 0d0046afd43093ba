#!/bin/bash
# Lets the compose replica stream from the primary (trust inside the compose network only).
set -e
echo "host replication postgres all trust" >> "$PGDATA/pg_hba.conf"
