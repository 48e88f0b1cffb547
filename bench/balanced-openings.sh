#!/usr/bin/env bash
# Make the balanced opening sets in bench/openings/ (committed): the shared Piskvork
# openings extended by two random moves and kept when a 400k-node search finds them within
# 600 (a 45-55 % winning chance) for the side to move; 40 openings per set, 15x15 and 20x20
# freestyle, 15x15 standard and renju. One to two minutes a set on one core (155-207
# candidates searched for 40 kept, 2026-12-05).
#
# Usage: bench/balanced-openings.sh [SET...]   (sets: freestyle-15 freestyle-20 standard-15
# renju-15; default all). Environment: OPENINGS_NODES (400000), OPENINGS_KEEP (40).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
TARGET_DIR=$(rensa_target_dir)
(cd "$RENSA_REPO" && cargo build --release -p rensa-bench --bin balanced-openings)
OUT="$RENSA_REPO/bench/openings"
mkdir -p "$OUT"
SETS=("$@")
[[ ${#SETS[@]} -eq 0 ]] && SETS=(freestyle-15 freestyle-20 standard-15 renju-15)
for set in "${SETS[@]}"; do
    case $set in
        freestyle-15) rule=0 size=15 ;;
        freestyle-20) rule=0 size=20 ;;
        standard-15) rule=1 size=15 ;;
        renju-15) rule=4 size=15 ;;
        *) echo "unknown set $set" >&2; exit 2 ;;
    esac
    echo "== $set"
    "$TARGET_DIR/release/balanced-openings" --rule "$rule" --size "$size" --extend 2 \
        --nodes "${OPENINGS_NODES:-400000}" --max-score 600 --keep "${OPENINGS_KEEP:-40}" \
        --seed 1 --out "$OUT/$set.txt" 2> "$OUT/.$set.log" || { tail -3 "$OUT/.$set.log"; exit 1; }
    tail -1 "$OUT/.$set.log"
    rm -f "$OUT/.$set.log"
done
