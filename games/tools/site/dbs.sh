#!/usr/bin/env bash
# PostgreSQL on 127.0.0.1:5490 and Redis on 127.0.0.1:6390 for the multi-process load
# benchmark (docs/benchmarks.md, "Load benchmark"): throw-away servers from Debian's packages (`make
# servers` installs them) in $OKEY_BENCH_DIR (default /tmp/okey-bench-dbs), nothing
# configured system-wide.
#
#   games/tools/site/dbs.sh start   # initdb on first use, start both, create the loadbench database
#   games/tools/site/dbs.sh stop    # stop both (the data directory stays; `rm -rf` it to start over)
#   games/tools/site/dbs.sh env     # the DATABASE_URL and REDIS_URL lines to export
#
# PostgreSQL: fsync stays on; synchronous_commit=off (a commit does not wait for its WAL
# flush: a crash may lose the last few hundred milliseconds of moves, never corrupt the
# database, a fair setting for a game site); max_connections 200 (each server process
# keeps a connection per thread that touches the database, CONN_MAX_AGE=600).
# Redis: no persistence (the channel layer and the cache hold nothing durable).
set -euo pipefail

DIR=${OKEY_BENCH_DIR:-/tmp/okey-bench-dbs}
PG_PORT=${OKEY_BENCH_PG_PORT:-5490}
REDIS_PORT=${OKEY_BENCH_REDIS_PORT:-6390}
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$PG_BIN" ] || { echo "PostgreSQL is missing: make servers" >&2; exit 1; }
command -v redis-server >/dev/null || { echo "Redis is missing: make servers" >&2; exit 1; }

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() {
  mkdir -p "$DIR"
  [ "$(id -u)" = 0 ] && chown postgres "$DIR"
  if [ ! -f "$DIR/pg/PG_VERSION" ]; then
    as_postgres "$PG_BIN/initdb" -D "$DIR/pg" -A trust -U postgres >/dev/null
  fi
  if ! "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT"; then
    as_postgres "$PG_BIN/pg_ctl" -D "$DIR/pg" -l "$DIR/pg.log" -w start -o \
      "-p $PG_PORT -k $DIR -c listen_addresses=127.0.0.1 -c synchronous_commit=off \
       -c max_connections=200 -c shared_buffers=256MB" >/dev/null
  fi
  as_postgres "$PG_BIN/psql" -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -tc \
    "SELECT 1 FROM pg_database WHERE datname = 'loadbench'" | grep -q 1 ||
    as_postgres "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres loadbench
  if ! redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1; then
    redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no \
      --daemonize yes --pidfile "$DIR/redis.pid" --logfile "$DIR/redis.log" --dir "$DIR"
    for _ in $(seq 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
  fi
  echo "PostgreSQL on 127.0.0.1:$PG_PORT, Redis on 127.0.0.1:$REDIS_PORT ($DIR)"
}

stop() {
  if [ -f "$DIR/pg/postmaster.pid" ]; then
    as_postgres "$PG_BIN/pg_ctl" -D "$DIR/pg" -m fast -w stop >/dev/null || true
  fi
  redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  env)
    echo "export DATABASE_URL=postgres://postgres@127.0.0.1:$PG_PORT/loadbench"
    echo "export REDIS_URL=redis://127.0.0.1:$REDIS_PORT/0"
    ;;
  *) echo "usage: $0 start|stop|env" >&2; exit 2 ;;
esac
