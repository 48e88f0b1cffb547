"""Play one complete game between two Rensa processes through pygomo-lib, a Gomocup client
from PyPI, and report what the client read from Rensa's search output.

Usage: python play_game.py ENGINE [TURN_MS] [SIZE]

Prints, for each move in order, a line `MOVE x y` and then one line per search report that
pygomo parsed from the MESSAGE lines of that search, `SEARCH depth seldepth eval x,y x,y ...`
(the evaluation as pygomo read it, the principal variation as (x, y) pairs; taken from the
move's `all_info`, since pygomo's TURN handler does not pass the lines it reads together
with the move to an `on_info` callback); at the end
`END five`, `END full`, `END cap` or `END <problem>`. Freestyle rules; the referee is
pygomo's own board.
"""

import sys

from pygomo import EngineClient
from pygomo.board.bitboard import BitBoard
from pygomo.protocol.models import Move

engine = sys.argv[1]
turn_ms = int(sys.argv[2]) if len(sys.argv) > 2 else 200
size = int(sys.argv[3]) if len(sys.argv) > 3 else 15
# A game between equals may fill much of the board: play it to a five or a full board
# (the cap is only a guard against a referee that never ends the game).
MAX_MOVES = size * size + 1


def configure(client):
    client.start(board_size=size)
    client.set_time(turn_time_ms=turn_ms, match_time_ms=0)
    client.configure(show_detail=1)
    client.set_rule(0)


def report(move, infos):
    print(f"MOVE {move.col} {move.row}")
    for i in infos:
        pv = " ".join(f"{m.col},{m.row}" for m in i.pv)
        print(f"SEARCH {i.depth} {i.sel_depth} {i.eval.raw_value} {pv}".rstrip())


board = BitBoard(_size=size)
moves = 0
end = "cap"
with EngineClient(engine) as black, EngineClient(engine) as white:
    configure(black)
    configure(white)
    result = black.begin()
    while True:
        if result is None or result.move is None:
            end = "no-move"
            break
        move = result.move
        moves += 1
        # The callback misses the lines that arrive in the same read as the move (pygomo's
        # TURN handler collects those without calling it); `all_info` holds every line.
        report(move, result.all_info)
        if not board.is_empty(Move((move.col, move.row))):
            end = "occupied"
            break
        board.place(Move((move.col, move.row)))
        if board.check_win(Move((move.col, move.row))) is not None:
            end = "five"
            break
        if board.is_full():
            end = "full"
            break
        if moves >= MAX_MOVES:
            break
        mover = white if moves % 2 == 1 else black
        result = mover.turn((move.col, move.row))
print(f"END {end}")
