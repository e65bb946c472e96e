#!/usr/bin/env bash
# Puts a copy of this repository at DEST, as a new user would get it: the committed HEAD
# (--clone) or the working tree's tracked and untracked, not ignored, files (--worktree).
# Usage: .ci/copy-repo.sh --clone|--worktree DEST
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode="${1:?usage: $0 --clone|--worktree DEST}"
dest="${2:?usage: $0 --clone|--worktree DEST}"

case "$mode" in
  --clone)
    echo "copy-repo: cloning the committed HEAD of $repo" >&2
    git clone --quiet "$repo" "$dest"
    ;;
  --worktree)
    echo "copy-repo: copying the working tree of $repo" >&2
    mkdir -p "$dest"
    (cd "$repo" && git ls-files -z --cached --others --exclude-standard) |
      tar -C "$repo" --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -C "$dest" -xf -
    ;;
  *) echo "usage: $0 --clone|--worktree DEST" >&2; exit 2 ;;
esac
