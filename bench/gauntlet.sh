#!/usr/bin/env bash
# Gauntlet: the working tree's Rensa against other Gomocup engines, given by path.
#
# Usage: bench/gauntlet.sh ENGINE [ENGINE...] [-- rensa-match options...]
#
# Builds the working tree (uncommitted changes included), copies pbrain-rensa into its own
# directory, and runs `rensa-match --gauntlet`: Rensa plays every ENGINE (a path to a
# pbrain-* executable, run in its own directory, so an engine that reads a config file
# beside itself finds it), each opening with both colours, one thread each, every pass
# through the openings under a new board symmetry (--transform). The summary prints W-L-D,
# Elo with its interval, how games ended (five, foul, timeout, crash...) and time overruns.
# Options after `--` are appended and override the defaults (e.g. -- --games 200).
#
# Environment: GAUNTLET_TC (default 0/1: 1 s per move, no game clock), GAUNTLET_RULE (0;
# 4 is renju), GAUNTLET_SIZE (15), GAUNTLET_GAMES (100 games per opponent),
# GAUNTLET_CONCURRENCY (1; at most 2 on a 2-core machine), GAUNTLET_OPENINGS (opening
# file), GAUNTLET_SRAND (opening shuffle seed, default 1), GAUNTLET_WORKDIR (records,
# summary.json and the engine log; default a new directory under /tmp).
set -euo pipefail

if [[ $# -lt 1 || "$1" == "-h" || "$1" == "--help" ]]; then
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 2
fi
OPPONENTS=()
while [[ $# -gt 0 && "$1" != "--" ]]; do
    OPPONENTS+=("$1")
    shift
done
[[ $# -gt 0 ]] && shift

source "$(dirname "$0")/lib.sh"
WORK=$(work_dir "${GAUNTLET_WORKDIR:-}" rensa-gauntlet)
TARGET_DIR=$(rensa_target_dir)
engine_in "$WORK/rensa"

ENGINE_ARGS=(--engine "cmd=$WORK/rensa/pbrain-rensa" name=rensa)
for path in "${OPPONENTS[@]}"; do
    if [[ ! -x "$path" ]]; then
        echo "not an executable: $path" >&2
        exit 2
    fi
    abs=$(cd "$(dirname "$path")" && pwd)/$(basename "$path")
    name=$(basename "$path")
    name=${name#pbrain-}
    ENGINE_ARGS+=(--engine "cmd=$abs" "name=$name")
done

opening_args "${GAUNTLET_OPENINGS:-}" "${GAUNTLET_SRAND:-1}"

echo "== gauntlet: rensa against ${OPPONENTS[*]}; records and summary in $WORK"
"$TARGET_DIR/release/rensa-match" --gauntlet \
    "${ENGINE_ARGS[@]}" \
    --each "tc=${GAUNTLET_TC:-0/1}" thread=1 \
    --rule "${GAUNTLET_RULE:-0}" --boardsize "${GAUNTLET_SIZE:-15}" \
    --games "${GAUNTLET_GAMES:-100}" --concurrency "${GAUNTLET_CONCURRENCY:-1}" \
    --transform "${OPENING_ARGS[@]}" \
    --psq "$WORK/games" --json "$WORK/summary.json" --log "$WORK/engines.log" \
    "$@"
