#!/usr/bin/env bash
# Self-play SPRT for Rensa: is the working tree stronger than BASE_REV?
#
# Usage: bench/sprt.sh BASE_REV [rensa-match options...]
#
# Builds BASE_REV (a tag, branch or commit) in a temporary git worktree and the current
# working tree (uncommitted changes included), copies both pbrain-rensa binaries into
# their own directories, and runs rensa-match between them: an SPRT with elo0=0 elo1=10
# alpha=beta=0.05 in pentanomial form, colour-swapped pairs on random openings from the
# project's opening file. Options given after BASE_REV are appended and override the
# defaults (e.g. --games 2000 --concurrency 1 --sprt elo0=-5 elo1=5).
#
# Environment: SPRT_TC (default 8/0.5+0.05, seconds), SPRT_GAMES (20000, the cap),
# SPRT_CONCURRENCY (number of CPUs), SPRT_OPENINGS (opening file), SPRT_WORKDIR (where
# builds, records and summary.json go; default a new directory under /tmp),
# SPRT_BASE_TARGET (cargo target directory for the base build, to reuse it across runs).
set -euo pipefail

if [[ $# -lt 1 || "$1" == "-h" || "$1" == "--help" ]]; then
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 2
fi
BASE_REV=$1
shift

source "$(dirname "$0")/lib.sh"
REPO=$RENSA_REPO
BASE_SHA=$(rensa_commit "$BASE_REV")
WORK=$(work_dir "${SPRT_WORKDIR:-}" rensa-sprt)
SRC="$WORK/base-src"
TARGET_DIR=$(rensa_target_dir)

echo "== building base $BASE_REV ($BASE_SHA) in $SRC"
BASE_TARGET=${SPRT_BASE_TARGET:-$WORK/base-target}
build_revision "$BASE_SHA" "$SRC" "$BASE_TARGET"

echo "== building the working tree"
build_working_tree

mkdir -p "$WORK/base" "$WORK/new"
cp "$BASE_TARGET/release/pbrain-rensa" "$WORK/base/pbrain-rensa"
cp "$TARGET_DIR/release/pbrain-rensa" "$WORK/new/pbrain-rensa"

opening_args "${SPRT_OPENINGS:-}"
CONCURRENCY=${SPRT_CONCURRENCY:-$(nproc 2>/dev/null || echo 1)}
SHORT=$(git -C "$REPO" rev-parse --short "$BASE_SHA")

echo "== SPRT: working tree vs $BASE_REV ($SHORT); records and summary in $WORK"
"$TARGET_DIR/release/rensa-match" \
    --engine "cmd=$WORK/new/pbrain-rensa" name=new \
    --engine "cmd=$WORK/base/pbrain-rensa" "name=base-$SHORT" \
    --each "tc=${SPRT_TC:-8/0.5+0.05}" thread=1 \
    --rule 0 --boardsize 15 \
    --games "${SPRT_GAMES:-20000}" --concurrency "$CONCURRENCY" \
    "${OPENING_ARGS[@]}" \
    --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 --pentanomial \
    --psq "$WORK/games" --json "$WORK/summary.json" \
    "$@"
