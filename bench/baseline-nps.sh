#!/bin/sh
# bench nodes per second of the working tree beside a tagged baseline's, in one run:
#   bench/baseline-nps.sh [TAG] [MS_PER_POSITION]
# Unpacks TAG's sources (default baseline-core) into target/baseline-src, builds the
# harness in bench/baseline-nps against both, and runs it. A clone without the
# baseline-core tag (tags are not always fetched) uses the commit the tag names.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TAG=${1:-baseline-core}
MS=${2:-300}
SRC="$ROOT/target/baseline-src"
REV=$TAG
if [ "$TAG" = baseline-core ] && ! git -C "$ROOT" rev-parse -q --verify "$TAG^{commit}" >/dev/null; then
  REV=a2e9c570cf7798310b78a073acf0bdf37dd914d1
  echo "baseline-nps: no tag baseline-core here; using the commit it names, $REV" >&2
fi
rm -rf "$SRC"
mkdir -p "$SRC"
git -C "$ROOT" archive "$REV" | tar -x -C "$SRC"
# One lockfile cannot hold two packages of one name and version: rename the baseline's.
sed -i.orig 's/^name = "rensa"$/name = "rensa_baseline"/' "$SRC/Cargo.toml"
cargo build --release --quiet --manifest-path "$ROOT/bench/baseline-nps/Cargo.toml" \
  --target-dir "$ROOT/target/baseline-nps"
cd "$ROOT"
exec "$ROOT/target/baseline-nps/release/rensa-baseline-nps" "$TAG" bench/signature.txt "$MS"
