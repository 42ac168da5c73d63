#!/usr/bin/env bash
# Profiles the API under bench/profile/load.ts (issue 15): a throwaway cluster, the API
# (optionally under --cpu-prof into $PROF_DIR), the load, the top frames.
# Usage: bench/profile/run.sh [--prof DIR] [scenario…]   (run it under flock /tmp/tidewater-heavy.lock)
# Scenarios: warm one spread list burst stepup (all when none is named). LOG_LEVEL=warn to leave logging out.
# SERVER_DIR=/other/checkout/server measures another checkout's API; BARE_SQL=1 adds bareSql.ts;
# the API's own env (API_WORKERS, ACCESS_TOKEN_CACHE_ENTRIES, …) passes through.
set -euo pipefail
cd "$(dirname "$0")/../.."
# The project's own Node (24, from npm), as npm scripts run it: the machine's may be older and not run .ts.
export PATH="$PWD/node_modules/.bin:$PATH"
PROF=""
if [ "${1:-}" = "--prof" ]; then PROF="$2"; shift 2; fi
DIR=$(mktemp -d /tmp/perf-pg.XXXX)
# The bench's settings (bench/lib/scenarios.ts benchSettings): room for two APIs' pools.
URL=$(npx tsx test-support/src/pgCluster.ts start --dir "$DIR" --set max_connections=200 --set shared_buffers=128MB | sed -n 's/^DATABASE_URL=//p')
PORT=$((20000 + RANDOM % 20000))
NODEFLAGS=()
[ -n "$PROF" ] && mkdir -p "$PROF" && NODEFLAGS+=(--cpu-prof --cpu-prof-interval ${PROF_INTERVAL_US:-1000} --cpu-prof-dir "$PROF")
(cd "${SERVER_DIR:-server}" && DATABASE_URL="$URL" API_PORT=$PORT API_METRICS_PORT=0 JWT_SECRET="perf-$(openssl rand -hex 24)" PIN_PEPPER="perf:$(openssl rand -hex 24)" LOG_LEVEL=${LOG_LEVEL:-info} \
  exec node "${NODEFLAGS[@]}" src/main.ts >"$DIR/api.log" 2>&1) &
API=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/api/health" >/dev/null && break; sleep 0.3; done
# CPU per operation of the API (with its workers) and of PostgreSQL (its postmaster and backends).
PG=$(head -1 "$(find "$DIR" -name postmaster.pid | head -1)")
WAITS_URL="$URL" CPU_PIDS="api:$API,pg:$PG" npx tsx bench/profile/load.ts "http://127.0.0.1:$PORT" "$@" || true
kill -TERM $API 2>/dev/null || true; wait $API || true
# After the API has gone: its pools would take the server's connections.
if [ -n "${BARE_SQL:-}" ]; then npx tsx bench/profile/bareSql.ts "$URL" || true; fi
npx tsx test-support/src/pgCluster.ts stop --dir "$DIR" >/dev/null
tail -3 "$DIR/api.log"; rm -rf "$DIR"
if [ -n "$PROF" ]; then node bench/profile/topFrames.mjs "$(ls -S "$PROF"/*.cpuprofile | head -1)"; fi
