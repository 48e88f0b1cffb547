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

# work_dir DIR NAME: DIR (made if missing), or a new directory NAME.XXXXXX under TMPDIR when
# DIR is empty; prints its absolute path.
work_dir() {
    local dir=${1:-$(mktemp -d "${TMPDIR:-/tmp}/$2.XXXXXX")}
    mkdir -p "$dir"
    (cd "$dir" && pwd)
}

# engine_in DIR: build the working tree and copy its pbrain-rensa to DIR/pbrain-rensa (an
# engine runs in its own directory, and a copy keeps running while the tree is rebuilt).
engine_in() {
    echo "== building the working tree"
    build_working_tree
    mkdir -p "$1"
    cp "$(rensa_target_dir)/release/pbrain-rensa" "$1/pbrain-rensa"
}

# opening_args FILE [SEED]: sets OPENING_ARGS to rensa-match's options for FILE (default
# the shared Piskvork openings) in random order, shuffled with SEED when one is given (a
# new order each run otherwise), or to nothing with a warning when the file is missing.
opening_args() {
    local file=${1:-$RENSA_REPO/../shared/testdata/openings/piskvork-openings.txt}
    OPENING_ARGS=()
    if [[ -f "$file" ]]; then
        OPENING_ARGS=(--openings "file=$file" order=random)
        if [[ -n "${2:-}" ]]; then
            OPENING_ARGS+=("srand=$2")
        fi
    else
        echo "warning: opening file $file not found: games start on an empty board" >&2
    fi
}
