#!/usr/bin/env bash
# Does the working tree play move for move as BASE_REV? (for changes that keep play)
#
# Usage: bench/same-play.sh BASE_REV [GAMES_PER_RULE]
#
# Builds BASE_REV in a temporary git worktree and the working tree, then lets each build
# play itself at a fixed node count (INFO max_node 5000, one thread, a generous clock that
# never binds) over the shared Piskvork openings in order, GAMES_PER_RULE games (default
# 14) under each of freestyle, standard, renju and caro on 15x15. Compares the moves of
# every game record (times stripped) and prints how many games and moves were compared and
# the first difference, if any. Exit status 0 when every game is the same.
set -euo pipefail

if [[ $# -lt 1 || "$1" == "-h" || "$1" == "--help" ]]; then
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 2
fi
BASE_REV=$1
GAMES=${2:-14}
source "$(dirname "$0")/lib.sh"
REPO=$RENSA_REPO
BASE_SHA=$(rensa_commit "$BASE_REV")
WORK=$(work_dir "" rensa-same)
TARGET_DIR=$(rensa_target_dir)

echo "== building base $BASE_REV ($BASE_SHA) and the working tree"
build_revision "$BASE_SHA" "$WORK/base-src" "$WORK/base-target"
build_working_tree
mkdir -p "$WORK/old" "$WORK/new"
cp "$WORK/base-target/release/pbrain-rensa" "$WORK/old/"
cp "$TARGET_DIR/release/pbrain-rensa" "$WORK/new/"
OPENINGS=$REPO/../shared/testdata/openings/piskvork-openings.txt

# Self-play of one build; writes one line per game record and its moves to $2.
self_play() {
    local bin=$1 out=$2
    for rule in 0 1 4 8; do
        "$TARGET_DIR/release/rensa-match" --engine "cmd=$bin" name=a --engine "cmd=$bin" name=b \
            --each tc=0/10 thread=1 option.max_node=5000 \
            --rule "$rule" --boardsize 15 --games "$GAMES" --concurrency 1 \
            --openings "file=$OPENINGS" order=sequential \
            --psq "$WORK/psq-$(basename "$(dirname "$bin")")-$rule" --progress quiet >/dev/null
        for f in "$WORK/psq-$(basename "$(dirname "$bin")")-$rule"/*.psq; do
            echo "rule $rule $(basename "$f")"
            grep -E '^[0-9]+,[0-9]+' "$f" | cut -d, -f1,2
        done
    done > "$out"
}
echo "== self-play at 5000 nodes a move, $GAMES games per rule"
self_play "$WORK/old/pbrain-rensa" "$WORK/old.txt"
self_play "$WORK/new/pbrain-rensa" "$WORK/new.txt"
games=$(grep -c '^rule ' "$WORK/new.txt")
moves=$(grep -vc '^rule ' "$WORK/new.txt")
if cmp -s "$WORK/old.txt" "$WORK/new.txt"; then
    echo "same play: $games games, $moves moves (openings included), identical move for move"
else
    echo "DIFFERENT play over $games games; first difference:"
    diff "$WORK/old.txt" "$WORK/new.txt" | head -5
    exit 1
fi
