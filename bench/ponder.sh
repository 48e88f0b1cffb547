#!/usr/bin/env bash
# Pondering on against pondering off: the same build of Rensa twice, one with
# `INFO pondering 1`, at a game clock, one game at a time (the ponderer thinks on the
# machine's second core while its opponent moves), both colours on every opening, every pass
# through the openings under a new symmetry.
#
# Usage: bench/ponder.sh [extra rensa-match options...]   (e.g. --resume to go on)
#
# Environment: PONDER_TC (default 60/5: 60 s a game, 5 s a move at most), PONDER_GAMES (200),
# PONDER_RULE (0), PONDER_SIZE (15), PONDER_OPENINGS (default the balanced
# bench/openings/freestyle-15.txt), PONDER_SRAND (opening order seed, default 1),
# PONDER_WORKDIR (default a new directory under /tmp; give one to resume). Pondering uses the
# idle core: give the run the machine alone (two cores, so one game at a time).
set -euo pipefail

if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 2
fi

source "$(dirname "$0")/lib.sh"
WORK=$(work_dir "${PONDER_WORKDIR:-}" rensa-ponder)
TARGET_DIR=$(rensa_target_dir)
if [[ " $* " == *" --resume "* && -x "$WORK/bin/pbrain-rensa" ]]; then
    echo "== resuming with the engine already in $WORK/bin"
else
    engine_in "$WORK/bin"
fi
opening_args "${PONDER_OPENINGS:-$RENSA_REPO/bench/openings/freestyle-15.txt}" "${PONDER_SRAND:-1}"
echo "== pondering on against off: records and summary in $WORK"
exec "$TARGET_DIR/release/rensa-match" \
    --engine "cmd=$WORK/bin/pbrain-rensa" name=ponder option.pondering=1 \
    --engine "cmd=$WORK/bin/pbrain-rensa" name=noponder \
    --each "tc=${PONDER_TC:-60/5}" thread=1 \
    --rule "${PONDER_RULE:-0}" --boardsize "${PONDER_SIZE:-15}" \
    --games "${PONDER_GAMES:-200}" --concurrency 1 \
    --transform --pentanomial "${OPENING_ARGS[@]}" \
    --psq "$WORK/games" --json "$WORK/summary.json" --progress plain "$@"
