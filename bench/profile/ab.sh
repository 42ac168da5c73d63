#!/usr/bin/env bash
# Two APIs side by side on one throwaway cluster (issue 15, adr/0024): A with the env A_ENV,
# B with B_ENV (e.g. A_ENV="ACCOUNT_SENDS_AT_ONCE=10000" B_ENV="ACCOUNT_SENDS_AT_ONCE=2"),
# A_DIR/B_DIR another checkout's server/. bench/profile/ab.ts loads them in alternating
# turns (A B B A …), so the machine's drift falls on both: MODE=burst (bursts of BURST_SIZE
# deposits into a fresh account), MODE=one (24 clients on one account for 3 s), MODE=spread
# (an account each) or MODE=random (a random one of 200 accounts per deposit); ROUNDS;
# MODE=list (GET /api/accounts of two accounts); TURN_MS, the length of a turn (3 s; not
# with burst). PROFILE_DIR: each API runs under `node --cpu-prof` (250 µs samples) and
# writes its profile into PROFILE_DIR/a or /b when it ends (bench/profile/topFrames.mjs
# reads one; give each side API_WORKERS=1 so the profile is the worker's).
# Usage: flock /tmp/tidewater-heavy.lock bench/profile/ab.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=$(mktemp -d /tmp/perf-ab.XXXX)
# The bench's settings (bench/lib/scenarios.ts benchSettings): room for two APIs' pools.
URL=$(npx tsx test-support/src/pgCluster.ts start --dir "$DIR" --set max_connections=200 --set shared_buffers=128MB | sed -n 's/^DATABASE_URL=//p')
PIDS=()
start() { # side, port, server dir, env words; appends the pid to PIDS
  local port=$2 prof=()
  if [ -n "${PROFILE_DIR:-}" ]; then prof=(--cpu-prof --cpu-prof-interval 250 "--cpu-prof-dir=$PROFILE_DIR/$1"); fi
  (cd "$3" && exec env $4 DATABASE_URL="$URL" API_PORT=$port API_METRICS_PORT=0 JWT_SECRET="ab-$(openssl rand -hex 24)" PIN_PEPPER="ab:$(openssl rand -hex 24)" LOG_LEVEL=warn \
    node "${prof[@]}" src/main.ts >"$DIR/$1.log" 2>&1) &
  PIDS+=($!)
}
PORT_A=$((20000 + RANDOM % 10000)); PORT_B=$((30000 + RANDOM % 10000))
start a "$PORT_A" "${A_DIR:-server}" "${A_ENV:-}"
start b "$PORT_B" "${B_DIR:-server}" "${B_ENV:-}"
trap 'kill -TERM "${PIDS[@]}" 2>/dev/null || true; wait || true; npx tsx test-support/src/pgCluster.ts stop --dir "$DIR" >/dev/null; rm -rf "$DIR"' EXIT
for port in $PORT_A $PORT_B; do
  for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break; sleep 0.3; done
done
# ab.ts checks MODE (exit 2) and fails when a deposit does: show the APIs' last lines, and fail too.
status=0
npx tsx bench/profile/ab.ts "http://127.0.0.1:$PORT_A" "${PIDS[0]}" "http://127.0.0.1:$PORT_B" "${PIDS[1]}" || status=$?
if [ "$status" -ne 0 ]; then tail -n 5 "$DIR/a.log" "$DIR/b.log"; fi
exit "$status"
