#!/usr/bin/env bash
# Runs a command (default: `npm test`) as if this machine had no PostgreSQL package, to
# prove the test clusters come from npm's binaries then (README "Test it"). Needs root and
# util-linux's unshare; changes nothing outside its own private mount namespace:
#   - an empty tmpfs over /usr/lib/postgresql (Debian's binaries; symlinks to them dangle),
#   - /dev/null over every pg_config, initdb, pg_ctl and postgres on PATH,
#   - a copy of /etc without the postgres user and group over /etc, so the clusters must
#     make their user themselves (useradd writes into that copy, which is thrown away).
# TIDEWATER_PG_BINARIES is unset inside: the automatic choice must find npm's.
#
#   sudo test-support/scripts/without-machine-postgres.sh npx vitest run --project test-support
set -euo pipefail
[ "$(id -u)" = 0 ] || { echo "run as root (it uses a private mount namespace)" >&2; exit 1; }
[ $# -gt 0 ] || set -- npm test
inside=$(cat <<'INSIDE'
set -euo pipefail
etc=$(mktemp -d /tmp/tidewater-etc.XXXXXX)
cp -a /etc/. "$etc/"
for file in passwd group shadow gshadow; do
  [ -f "$etc/$file" ] || continue
  # Drop the postgres entry, and postgres from every group's member list (the last field).
  awk -F: -v OFS=: '$1 == "postgres" { next }
    { n = split($NF, members, ","); kept = ""
      for (i = 1; i <= n; i++) if (members[i] != "postgres") kept = kept (kept == "" ? "" : ",") members[i]
      $NF = kept; print }' "$etc/$file" >"$etc/$file.new"
  cat "$etc/$file.new" >"$etc/$file" && rm "$etc/$file.new"
done
mount --bind "$etc" /etc
[ -d /usr/lib/postgresql ] && mount -t tmpfs tidewater-no-postgres /usr/lib/postgresql
IFS=: read -ra dirs <<<"$PATH"
for dir in "${dirs[@]}"; do
  for binary in pg_config initdb pg_ctl postgres pg_basebackup psql; do
    if [ -e "$dir/$binary" ] || [ -L "$dir/$binary" ]; then
      [ -e "$dir/$binary" ] && mount --bind /dev/null "$dir/$binary" || true
    fi
  done
done
unset TIDEWATER_PG_BINARIES
echo "without-machine-postgres: id postgres: $(id postgres 2>&1 || true)"
echo "without-machine-postgres: pg_config: $(pg_config --bindir 2>&1 || true)"
echo "without-machine-postgres: /usr/lib/postgresql: [$(ls -A /usr/lib/postgresql 2>/dev/null)]"
echo "without-machine-postgres: initdb on PATH: $(initdb --version 2>&1 || true)"
status=0
"$@" || status=$?
echo "without-machine-postgres: id postgres after: $(id postgres 2>&1 || true)"
umount /etc
rm -rf "$etc"
exit $status
INSIDE
)
exec unshare --mount --propagation private bash -c "$inside" without-machine-postgres "$@"
