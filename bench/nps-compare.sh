#!/usr/bin/env bash
# Speed against an earlier revision: alternating `pbrain-rensa bench` runs of two builds.
#
# Usage: bench/nps-compare.sh BASE_REV [PAIRS]
#
# Builds BASE_REV (a tag, branch or commit) in a temporary git worktree and the working
# tree (uncommitted changes included), then runs `pbrain-rensa bench` PAIRS times (default
# 7) for each build, old and new in turn, so that both see the same phases of a machine
# whose speed drifts. Prints every run's node count and nodes per second, each pair's ratio
# new/old, and the median ratio. The node counts must agree with each build's own bench
# signature; when the two builds search the same tree (a change that keeps `Bench:`), the
# script also checks that both counted the same nodes.
#
# Environment: NPS_BASE_TARGET (cargo target directory for the base build, to reuse it).
set -euo pipefail

if [[ $# -lt 1 || "$1" == "-h" || "$1" == "--help" ]]; then
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 2
fi
BASE_REV=$1
PAIRS=${2:-7}

source "$(dirname "$0")/lib.sh"
BASE_SHA=$(rensa_commit "$BASE_REV")
WORK=$(work_dir "" rensa-nps)
TARGET_DIR=$(rensa_target_dir)

echo "== building base $BASE_REV ($BASE_SHA)"
BASE_TARGET=${NPS_BASE_TARGET:-$WORK/base-target}
build_revision "$BASE_SHA" "$WORK/base-src" "$BASE_TARGET"
echo "== building the working tree"
build_working_tree
cp "$BASE_TARGET/release/pbrain-rensa" "$WORK/old"
cp "$TARGET_DIR/release/pbrain-rensa" "$WORK/new"

# Prints "NODES NPS" of one bench run.
bench_run() {
    "$1" bench 2>/dev/null | awk -F: '
        /^Nodes searched/ { gsub(/ /, "", $2); nodes = $2 }
        /^Nodes\/second/  { gsub(/ /, "", $2); nps = $2 }
        END { if (nodes == "" || nps == "") exit 1; print nodes, nps }'
}

ratios=()
for i in $(seq 1 "$PAIRS"); do
    read -r old_nodes old_nps < <(bench_run "$WORK/old")
    read -r new_nodes new_nps < <(bench_run "$WORK/new")
    ratio=$(awk -v n="$new_nps" -v o="$old_nps" 'BEGIN { printf "%.4f", n / o }')
    ratios+=("$ratio")
    printf 'pair %d: old %s nodes %s nps | new %s nodes %s nps | ratio %s\n' \
        "$i" "$old_nodes" "$old_nps" "$new_nodes" "$new_nps" "$ratio"
    if [[ "$old_nodes" != "$new_nodes" ]]; then
        same_tree=no
    fi
done
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ v[NR] = $1 } END {
    if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
echo "median ratio new/old over $PAIRS pairs: $median"
if [[ "${same_tree:-yes}" == no ]]; then
    echo "note: the two builds searched different trees (their bench signatures differ)"
fi
