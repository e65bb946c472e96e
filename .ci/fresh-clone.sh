#!/usr/bin/env bash
# The fresh-clone check: what a new user does on a machine with only Node.js and npm.
# Clones the committed HEAD of this repository into a temporary folder, runs the README's run
# command there (npm install && npm start) on a free port with DATA_DIR inside the folder, waits
# for /api/v1/openapi.json, mints a token with the clone's CLI (it goes through the running
# server's control socket, since the server holds the data folder), calls GET /api/v1/me, stops
# the server and removes everything. Any failure prints why and the server's last output.
#
# Usage: .ci/fresh-clone.sh [--worktree]
#   --worktree  copy the working tree (tracked and untracked, not ignored files) instead of HEAD
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode=clone
case "${1:-}" in
  --worktree) mode=worktree ;;
  "") ;;
  *) echo "usage: $0 [--worktree]" >&2; exit 2 ;;
esac

tmp="$(mktemp -d "${TMPDIR:-/tmp}/atrium-fresh.XXXXXX")"
clone="$tmp/atrium"
log="$tmp/serve.log"
server_pid=""

say() { echo "fresh-clone: $*" >&2; }
fail() {
  say "FAIL: $*"
  if [ -s "$log" ]; then
    echo "--- last lines of npm install && npm start ---" >&2
    tail -n 40 "$log" >&2
  fi
  exit 1
}
# The server runs in its own process group (setsid): stopping the group stops npm and node alike.
stop_server() {
  [ -n "$server_pid" ] || return 0
  kill -TERM -- "-$server_pid" 2>/dev/null || true
  for _ in $(seq 1 100); do
    pgrep -g "$server_pid" >/dev/null 2>&1 || break
    sleep 0.2
  done
  if pgrep -g "$server_pid" >/dev/null 2>&1; then
    kill -KILL -- "-$server_pid" 2>/dev/null || true
    server_pid=""
    return 1
  fi
  server_pid=""
}
cleanup() {
  stop_server || true
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

bash "$repo/.ci/copy-repo.sh" "--$mode" "$clone" || fail "copying the repository failed"

port="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
data="$tmp/data"
base="http://127.0.0.1:$port"
# Only what the README's run command is given: no Atrium setting from this shell leaks in.
unset DATABASE_URL ATRIUM_DEMO PUBLIC_URL HOST LOG_LEVEL
export PORT="$port" DATA_DIR="$data"

say "running 'npm install && npm start' (PORT=$port, DATA_DIR=$data)"
setsid bash -c 'cd "$1" && npm install --no-audit --no-fund && npm start' _ "$clone" >"$log" 2>&1 </dev/null &
server_pid=$!

deadline=$((SECONDS + 600))
until curl -fsS -o /dev/null "$base/api/v1/openapi.json" 2>/dev/null; do
  kill -0 "$server_pid" 2>/dev/null || fail "the service stopped before answering"
  [ "$SECONDS" -lt "$deadline" ] || fail "no answer at $base/api/v1/openapi.json after 10 minutes"
  sleep 1
done
say "the service answers at $base"

read -r email name < <(cd "$clone" && node --input-type=module -e "
  import { readFileSync } from 'node:fs';
  import { parse } from 'yaml';
  const admin = parse(readFileSync('examples/demo-workspace.yaml', 'utf8')).members.find((m) => m.admin && m.email && m.password);
  console.log(admin.email, admin.name);
") || fail "cannot read the demo administrator from examples/demo-workspace.yaml"

grep -qF "npx atrium token create --member $email --name \"my agent\" --access write" "$log" ||
  fail "the start-up output does not show the command that mints a token for $email"

token="$(cd "$clone" && npx --no atrium token create --member "$email" --name "fresh clone" --access write 2>"$tmp/token.err")" ||
  fail "npx atrium token create failed: $(cat "$tmp/token.err")"
[[ "$token" =~ ^svc_pat_[A-Za-z0-9_-]{43}$ ]] || fail "token create printed something else than a token: $token"

status="$(curl -sS -o "$tmp/me.json" -w '%{http_code}' -H "Authorization: Bearer $token" "$base/api/v1/me")" ||
  fail "GET /api/v1/me did not answer"
[ "$status" = 200 ] || fail "GET /api/v1/me answered $status: $(cat "$tmp/me.json")"
grep -qF "\"name\":\"$name\"" "$tmp/me.json" || fail "GET /api/v1/me does not name $name: $(cat "$tmp/me.json")"
say "GET /api/v1/me answers 200 as $name"

stop_server || fail "the service did not stop on SIGTERM within 20 seconds"
[ ! -e "$data/atrium.lock" ] || fail "the service left its lock file behind"
[ ! -e "$data/atrium.sock" ] || fail "the service left its control socket behind"
say "OK: npm install && npm start works on a fresh clone"
