"""Forbidden points by the Gomocup renju referee, for Rensa's differential test.

Reads positions from standard input, one a line: the board size N, a space, then N*N cells
row by row (y = 0 first, x across) as `.` empty, `X` black, `O` white. Writes one line per
position: the forbidden squares for Black as `x,y,kind` separated by spaces (kind 1 double
three, 2 double four, 3 overline, as the referee numbers them), or `-` when there are none.

The verdicts come from `renju.check_forbid` (PyPI package `renju`, MIT licence), a port of
the `foulr` routine of Piskvork's `renju.cpp`, which GomocupJudge's `check_forbid.py` also
adapts: the referee of Gomocup renju games. Nothing here judges a move by itself.
"""

import sys

from renju.check_forbid import ForbidChecker


def forbidden(size, cells):
    # The checker indexes board[x][y]; 1 is black and 2 white.
    board = [[0] * size for _ in range(size)]
    for y in range(size):
        for x in range(size):
            c = cells[y * size + x]
            if c == "X":
                board[x][y] = 1
            elif c == "O":
                board[x][y] = 2
            elif c != ".":
                raise ValueError(f"bad cell {c!r}")
    checker = ForbidChecker(board, 0, 0)
    found = []
    for y in range(size):
        for x in range(size):
            if board[x][y] == 0:
                kind = checker.foulr(x, y, 0)
                if kind:
                    found.append(f"{x},{y},{kind}")
    return found


def main():
    out = sys.stdout
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        size_text, cells = line.split(" ", 1)
        size = int(size_text)
        if len(cells) != size * size:
            raise ValueError(f"expected {size * size} cells, got {len(cells)}")
        found = forbidden(size, cells)
        out.write((" ".join(found) if found else "-") + "\n")
    out.flush()


if __name__ == "__main__":
    main()
