#!/usr/bin/env bash
# A throwaway PostgreSQL primary + streaming replica for the read-replica test and bench
# (issue 17 item 6). Leaves the shared server alone: both clusters live under $DIR on their own
# ports, trust auth on 127.0.0.1 only. Usage: scripts/replica-pair.sh up|down|stop-replica|start-replica [dir] [primary-port]
# `up` prints `PRIMARY_URL=... REPLICA_URL=...` on its last line; exits non-zero if it cannot build them.
set -euo pipefail
CMD=${1:-up}
DIR=${2:-/tmp/fundgate-replica-pair}
PPORT=${3:-25432} # below the ephemeral port range (32768+), where listen(0) never lands
RPORT=$((PPORT + 1))
BIN=$(dirname "$(readlink -f "$(command -v initdb)")")
as_pg() { if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi; }

if [ "$CMD" = stop-replica ]; then # an outage of the replica alone (immediate: as if it crashed)
  as_pg "$BIN/pg_ctl" -D "$DIR/replica" -m immediate stop >/dev/null
  exit 0
fi
if [ "$CMD" = start-replica ]; then
  as_pg "$BIN/pg_ctl" -D "$DIR/replica" -l "$DIR/replica.log" -w start >/dev/null
  exit 0
fi
if [ "$CMD" = down ]; then
  for c in replica primary; do [ -d "$DIR/$c" ] && as_pg "$BIN/pg_ctl" -D "$DIR/$c" -m immediate stop >/dev/null 2>&1 || true; done
  rm -rf "$DIR"
  exit 0
fi

running() { as_pg "$BIN/pg_ctl" -D "$DIR/$1" status >/dev/null 2>&1; }
if running primary && running replica; then
  echo "PRIMARY_URL=postgres://postgres@127.0.0.1:$PPORT/postgres REPLICA_URL=postgres://postgres@127.0.0.1:$RPORT/postgres"
  exit 0
fi
"$0" down "$DIR" "$PPORT"
mkdir -p "$DIR" && chown postgres "$DIR" 2>/dev/null || true
as_pg "$BIN/initdb" -D "$DIR/primary" -U postgres -A trust --no-sync >/dev/null
cat >>"$DIR/primary/postgresql.conf" <<CONF
port = $PPORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$DIR'
wal_level = replica
max_wal_senders = 4
fsync = off
synchronous_commit = off
shared_buffers = 64MB
CONF
echo "host replication postgres 127.0.0.1/32 trust" >>"$DIR/primary/pg_hba.conf"
as_pg "$BIN/pg_ctl" -D "$DIR/primary" -l "$DIR/primary.log" -w start >/dev/null
as_pg "$BIN/pg_basebackup" -h 127.0.0.1 -p "$PPORT" -U postgres -D "$DIR/replica" -X stream -R >/dev/null
# standby.signal is written by -R; the replica takes its own port
cat >>"$DIR/replica/postgresql.conf" <<CONF
port = $RPORT
hot_standby = on
CONF
as_pg "$BIN/pg_ctl" -D "$DIR/replica" -l "$DIR/replica.log" -w start >/dev/null
echo "PRIMARY_URL=postgres://postgres@127.0.0.1:$PPORT/postgres REPLICA_URL=postgres://postgres@127.0.0.1:$RPORT/postgres"
