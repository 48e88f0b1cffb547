#!/usr/bin/env python3
"""How a peer engine wins against Rensa: its own evaluations, read from a gauntlet's log.

Usage:
    peer_wins.py ENGINES_LOG [--peer NAME] [--probe ENGINE] [--ms 1000,5000] [--rule N]
                 [--size N]

ENGINES_LOG is the `--log` file of a `rensa-match` gauntlet (`bench/gauntlet.sh` writes it
as `engines.log` in its work folder). For each game the peer played, the script rebuilds
the moves (the `BOARD` that opened the game, then each `TURN` and each reply) and the
evaluation the peer printed before each of its moves (Rapfi's `MESSAGE ... Eval X`, mate
scores `+M<n>` / `-M<n>`; PentaZen's `MESSAGE dep ... ev X`, mate scores `+v<n>` / `-v<n>`,
read as `+M<n>` / `-M<n>`).

It prints, for the games the peer won with a forced win it announced, the length of that
win, the ply it was announced at, and whether the peer's evaluation had already risen
above `--gradual` points over its three moves before (outplayed first) or not (a sudden
loss). With `--probe ENGINE`, each sudden loss's position before Rensa's last move ahead
of the announcement is searched again by ENGINE (a fresh process per search) at each time
of `--ms`, to tell whether more time would have chosen another move.
"""

import argparse
import json
import re
import statistics
import subprocess
import sys

LINE = re.compile(r"\[\s*[\d.]+\] (\w+)@(\d+) ([<>]) (.*)")
STONE = re.compile(r"^(\d+),(\d+),\d$")
MOVE = re.compile(r"^(\d+),(\d+)$")


def read_games(log_path, peer):
    """The peer's games in the log: a list of {"moves": [(x, y)], "evals": [str | None]},
    with the peer's last printed evaluation beside each of its own moves."""
    games, current, setting_up, last_eval = [], {}, {}, {}
    with open(log_path, errors="replace") as log:
        for raw in log:
            m = LINE.match(raw.rstrip("\n"))
            if not m or m.group(1) != peer:
                continue
            _, slot, way, text = m.groups()
            if way == ">":
                if text == "BOARD":
                    current[slot] = {"moves": [], "evals": []}
                    games.append(current[slot])
                    setting_up[slot] = True
                elif text == "DONE":
                    setting_up[slot] = False
                elif text.startswith("TURN ") and slot in current:
                    x, y = text[5:].split(",")
                    current[slot]["moves"].append((int(x), int(y)))
                    current[slot]["evals"].append(None)
                elif setting_up.get(slot) and STONE.match(text):
                    x, y = STONE.match(text).groups()
                    current[slot]["moves"].append((int(x), int(y)))
                    current[slot]["evals"].append(None)
            else:
                found = re.search(r"(?:Eval| ev) (\S+)", text)
                if text.startswith("MESSAGE") and found:
                    last_eval[slot] = re.sub(r"^([+-])v", r"\1M", found.group(1))
                elif MOVE.match(text) and slot in current:
                    x, y = MOVE.match(text).groups()
                    current[slot]["moves"].append((int(x), int(y)))
                    current[slot]["evals"].append(last_eval.pop(slot, None))
    return games


def is_mate(text):
    return text.startswith(("+M", "-M"))


def announced_wins(games, gradual):
    """For each game with a forced win the peer announced: (game, index of the announcing
    move, the announcement, the peer's evaluations over its three moves before)."""
    for g in games:
        own = [(i, e) for i, e in enumerate(g["evals"]) if e is not None]
        first = next((k for k, (_, e) in enumerate(own) if e.startswith("+M")), None)
        if first is None:
            continue
        before = [int(e) for _, e in own[max(0, first - 3):first] if not is_mate(e)]
        kind = "opening" if not before else ("gradual" if max(before) > gradual else "sudden")
        yield g, own[first][0], own[first][1], before, kind


def ask(engine, moves, ms, rule, size):
    """ENGINE's move and last reported evaluation and depth for `moves` (the side to move
    plays next), with `ms` for the move."""
    n = len(moves)
    lines = [f"START {size}", f"INFO timeout_turn {ms}", "INFO timeout_match 0",
             "INFO show_detail 1", f"INFO rule {rule}", "BOARD"]
    lines += [f"{x},{y},{1 if i % 2 == n % 2 else 2}" for i, (x, y) in enumerate(moves)]
    lines.append("DONE")
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    proc.stdin.write("\n".join(lines) + "\n")
    proc.stdin.flush()
    evaluation = depth = move = None
    for out in proc.stdout:
        found = re.search(r"Depth (\S+) \| Eval (\S+)", out)
        if found:
            depth, evaluation = found.groups()
        if MOVE.match(out.strip()):
            move = tuple(map(int, out.strip().split(",")))
            break
    # END only once the move is in: an END read during the search would stop it.
    proc.stdin.write("END\n")
    proc.stdin.flush()
    proc.wait(timeout=10)
    return move, evaluation, depth


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("log")
    parser.add_argument("--peer", default="rapfi", help="the peer's name in the log")
    parser.add_argument("--gradual", type=int, default=300,
                        help="peer evaluation above which a loss counts as gradual")
    parser.add_argument("--probe", help="engine to search the sudden losses again")
    parser.add_argument("--ms", default="1000,5000", help="times a move for --probe")
    parser.add_argument("--rule", type=int, default=0)
    parser.add_argument("--size", type=int, default=15)
    parser.add_argument("--json", help="write the rebuilt games here")
    args = parser.parse_args()

    games = read_games(args.log, args.peer)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(games, out)
    wins = list(announced_wins(games, args.gradual))
    print(f"{len(games)} games of {args.peer}; {len(wins)} forced wins announced")
    if not wins:
        return
    kinds = {k: sum(1 for w in wins if w[4] == k) for k in ("gradual", "sudden", "opening")}
    lengths = [int(w[2][2:]) for w in wins]
    print(f"gradual (above {args.gradual} before) {kinds['gradual']}, sudden {kinds['sudden']}, "
          f"in the opening {kinds['opening']}")
    print(f"length of the announced win: median {statistics.median(lengths)} plies "
          f"(min {min(lengths)}, max {max(lengths)}); announced at median ply "
          f"{statistics.median(w[1] for w in wins)}")
    if not args.probe:
        return
    times = [int(t) for t in args.ms.split(",")]
    changed = 0
    for g, at, mate, before, kind in wins:
        if kind != "sudden":
            continue
        position = [tuple(m) for m in g["moves"][:at - 1]]
        answers = [ask(args.probe, position, t, args.rule, args.size) for t in times]
        changed += len({a[0] for a in answers}) > 1
        shown = "; ".join(f"{t} ms: {a[0]} eval {a[1]} depth {a[2]}"
                          for t, a in zip(times, answers))
        print(f"ply {at - 1}, then {mate} (before {before}); played {tuple(g['moves'][at - 1])}; "
              f"{shown}", flush=True)
    print(f"another move with more time in {changed} of {kinds['sudden']}")


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        # Output cut short by a pager or `head`: not an error.
        sys.exit(0)
