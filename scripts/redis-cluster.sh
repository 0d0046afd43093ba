#!/usr/bin/env bash
# A throwaway three-node Redis Cluster (no replicas) for the cluster test (issue 17 item 6). Leaves
# the shared Redis alone: the nodes listen on 127.0.0.1 at BASE-PORT, +1, +2 (cluster bus 10000
# below each) and keep nothing on disk but their cluster config under $DIR. Usage: scripts/redis-cluster.sh up|down [dir] [base-port]
# `up` prints `REDIS_CLUSTER_NODES=...` on its last line; exits non-zero if it cannot build them.
set -euo pipefail
CMD=${1:-up}
DIR=${2:-/tmp/fundgate-redis-cluster}
BASE=${3:-27101} # below the ephemeral port range (32768+), where listen(0) never lands
PORTS="$BASE $((BASE + 1)) $((BASE + 2))"
NODES=$(for p in $PORTS; do printf 'redis://127.0.0.1:%s,' "$p"; done | sed 's/,$//')

if [ "$CMD" = down ]; then
  for p in $PORTS; do redis-cli -p "$p" shutdown nosave >/dev/null 2>&1 || true; done
  rm -rf "$DIR"
  exit 0
fi

"$0" down "$DIR" "$BASE"
mkdir -p "$DIR"
trap '"$0" down "$DIR" "$BASE"' ERR # a node that failed to start leaves none running
for p in $PORTS; do
  # the cluster bus listens on its own port, by default port + 10000: in the ephemeral range (32768+),
  # where an outgoing connection may hold it; 10000 below keeps it out of that range too
  redis-server --port "$p" --cluster-port $((p - 10000)) --bind 127.0.0.1 --cluster-enabled yes \
    --cluster-config-file "$DIR/nodes-$p.conf" --save '' --appendonly no --dir "$DIR" --logfile "$DIR/$p.log" \
    --daemonize yes
done
for p in $PORTS; do
  for _ in $(seq 50); do redis-cli -p "$p" ping >/dev/null 2>&1 && break; sleep 0.1; done
  redis-cli -p "$p" ping >/dev/null # fails (and cleans up) when a node did not come up
done
redis-cli --cluster create $(for p in $PORTS; do printf '127.0.0.1:%s ' "$p"; done) --cluster-replicas 0 --cluster-yes >/dev/null
for _ in $(seq 100); do
  ok=1
  for p in $PORTS; do redis-cli -p "$p" cluster info | grep -q '^cluster_state:ok' || ok=0; done
  [ "$ok" = 1 ] && break
  sleep 0.1
done
[ "$ok" = 1 ] || { echo "the cluster did not reach cluster_state:ok" >&2; "$0" down "$DIR" "$BASE"; exit 1; }
echo "REDIS_CLUSTER_NODES=$NODES"
