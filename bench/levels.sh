#!/usr/bin/env bash
# Calibrate the playing levels: each level against the next stronger one.
#
# Usage: bench/levels.sh [PAIRS...]
#
# Builds the working tree, then for each adjacent pair of named levels (beginner-easy,
# easy-medium, medium-hard, hard-max; or the PAIRS given, as `weak-strong`) runs
# rensa-match between two pbrain-rensa processes set with `INFO level NAME` (and a fixed
# `INFO seed` each), both colours on every opening, every pass under a new symmetry. Prints
# each pair's W-L-D and Elo (the weaker level's view) and writes a summary per pair.
#
# Environment: LEVELS_TC (default 0/1: 1 s per move), LEVELS_GAMES (200 per pair),
# LEVELS_CONCURRENCY (1), LEVELS_RULE (0), LEVELS_OPENINGS (opening file), LEVELS_WORKDIR
# (default a new directory under /tmp). Node-limited levels do not depend on the machine's
# speed; `max` does (it plays by the clock): give its pair the machine alone.
set -euo pipefail

if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 2
fi
PAIRS=("$@")
if [[ ${#PAIRS[@]} -eq 0 ]]; then
    PAIRS=(beginner-easy easy-medium medium-hard hard-max)
fi

source "$(dirname "$0")/lib.sh"
WORK=$(work_dir "${LEVELS_WORKDIR:-}" rensa-levels)
TARGET_DIR=$(rensa_target_dir)
engine_in "$WORK/bin"
opening_args "${LEVELS_OPENINGS:-}" 1

for pair in "${PAIRS[@]}"; do
    weak=${pair%-*}
    strong=${pair#*-}
    out="$WORK/$pair"
    mkdir -p "$out"
    echo "== $weak against $strong: records and summary in $out"
    "$TARGET_DIR/release/rensa-match" \
        --engine "cmd=$WORK/bin/pbrain-rensa" "name=$weak" "option.level=$weak" option.seed=1 \
        --engine "cmd=$WORK/bin/pbrain-rensa" "name=$strong" "option.level=$strong" option.seed=2 \
        --each "tc=${LEVELS_TC:-0/1}" thread=1 \
        --rule "${LEVELS_RULE:-0}" --boardsize 15 \
        --games "${LEVELS_GAMES:-200}" --concurrency "${LEVELS_CONCURRENCY:-1}" \
        --transform "${OPENING_ARGS[@]}" \
        --psq "$out/games" --json "$out/summary.json" > "$out/match.out" 2>&1
    grep -A3 "^$weak vs $strong" "$out/match.out" | sed -n 1,3p
done
