#!/usr/bin/env bash
# The PostgreSQL pass's focused suite again, through PgBouncer in transaction mode: every operation
# of the spec's list on two nodes, live events crossing between them, the races (two nodes, one
# row, one counter, one refresh token), the pooled start-up checks. PgBouncer comes from Debian's
# packages, installed when missing (CI runs as root), and runs on a spare port with a
# configuration written into a temporary folder, pointed at PostgreSQL on 127.0.0.1:5432.
#
# Usage: .ci/pooler.sh     (PGBOUNCER=/path/to/pgbouncer runs another build instead of Debian's)
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "pooler: $*" >&2; }
started=$SECONDS

FILES=(
  test/platform/every-operation-two-nodes.test.ts
  test/platform/behind-a-pooler.test.ts
  test/platform/two-nodes.test.ts
  test/platform/database-sessions.test.ts
  test/platform/row-queue.test.ts
  test/boards/concurrency.test.ts
  test/tickets/numbering.test.ts
  test/notifications/reminders-and-events.test.ts
  test/notifications/email-two-nodes.test.ts
)

bin="${PGBOUNCER:-$(command -v pgbouncer || echo /usr/sbin/pgbouncer)}"
if [ ! -x "$bin" ]; then
  [ "$(id -u)" = 0 ] || { say "FAIL: pgbouncer is not installed and installing it needs root"; exit 1; }
  say "installing pgbouncer from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends pgbouncer >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y --no-install-recommends pgbouncer >/dev/null; }
  bin=/usr/sbin/pgbouncer
fi
version="$("$bin" --version | head -1 | awk '{print $2}')"

port=6432
while node -e "require('net').connect($port,'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))"; do port=$((port + 1)); done

dir="$(mktemp -d "${TMPDIR:-/tmp}/atrium-pgbouncer.XXXXXX")"
cleanup() {
  [ -f "$dir/pgbouncer.pid" ] && kill "$(cat "$dir/pgbouncer.pid")" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT

# PgBouncer 1.21 and later keep each client's prepared statements (the service then keeps its
# statements named); 1.18, Debian 12's, passes names through (the service sends them unnamed).
prepared=""
if [ "$(printf '%s\n1.21\n' "$version" | sort -V | head -1)" = "1.21" ]; then prepared="max_prepared_statements = 200"; fi

cat >"$dir/pgbouncer.ini" <<EOF
[databases]
* = host=127.0.0.1 port=5432

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = trust
auth_file = $dir/users.txt
pool_mode = transaction
default_pool_size = 10
max_client_conn = 1000
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
$prepared
EOF
echo '"postgres" ""' >"$dir/users.txt"

# PgBouncer refuses to run as root
if [ "$(id -u)" = 0 ]; then
  user=postgres
  id "$user" >/dev/null 2>&1 || user=nobody
  chown -R "$user" "$dir"
  runuser -u "$user" -- "$bin" -d "$dir/pgbouncer.ini"
else
  "$bin" -d "$dir/pgbouncer.ini"
fi
for _ in $(seq 50); do
  node -e "require('net').connect($port,'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))" && break
  sleep 0.1
done
say "PgBouncer $version on 127.0.0.1:$port, pool_mode transaction${prepared:+, $prepared}"

status=0
ATRIUM_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
  ATRIUM_TEST_POOLER_URL="postgres://postgres@127.0.0.1:$port/test" \
  npx vitest run "${FILES[@]}" || status=$?
if [ "$status" != 0 ]; then
  say "the pooled pass failed; PgBouncer's log ends:"
  tail -20 "$dir/pgbouncer.log" >&2 || true
fi
say "the pass through PgBouncer took $((SECONDS - started)) s"
exit "$status"
