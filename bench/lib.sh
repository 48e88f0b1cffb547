# Helpers the bench scripts source (bash): where the repository and cargo's target directory
# are, and builds of the working tree and of any revision in a temporary git worktree.
# Sourcing this file sets RENSA_REPO and an EXIT trap that removes the worktrees it made.

RENSA_REPO=$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel)
RENSA_WORKTREES=()

rensa_cleanup() {
    local tree
    for tree in "${RENSA_WORKTREES[@]}"; do
        git -C "$RENSA_REPO" worktree remove --force "$tree" >/dev/null 2>&1 || true
    done
}
trap rensa_cleanup EXIT

# cargo's target directory for the working tree.
rensa_target_dir() {
    (cd "$RENSA_REPO" && cargo metadata --format-version 1 --no-deps \
        | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
}

# The full commit id of REV (a tag, branch or commit); fails when there is none.
rensa_commit() {
    git -C "$RENSA_REPO" rev-parse --verify "$1^{commit}"
}

# build_revision SHA SRC TARGET: check SHA out in a new worktree at SRC (removed on exit)
# and build its pbrain-rensa with TARGET as cargo's target directory
# (TARGET/release/pbrain-rensa).
build_revision() {
    local sha=$1 src=$2 target=$3
    git -C "$RENSA_REPO" worktree add --detach "$src" "$sha" >/dev/null 2>&1
    RENSA_WORKTREES+=("$src")
    (cd "$src" && CARGO_TARGET_DIR="$target" cargo build --release --quiet --bin pbrain-rensa)
}

# Build the working tree's pbrain-rensa and rensa-match (uncommitted changes included).
build_working_tree() {
    (cd "$RENSA_REPO" && cargo build --release --quiet --bin pbrain-rensa \
        && cargo build --release --quiet -p rensa-bench --bin rensa-match)
}
