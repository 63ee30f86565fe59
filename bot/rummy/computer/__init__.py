"""Computer players at three levels, and the safe move a turn timer plays for someone absent.

A computer player sees the game only through its own :class:`GameView` and chooses only
among the legal actions it is given, exactly like a person with buttons. What it remembers
between its turns (which cards an opponent took from the discard pile) it learns by
comparing the views it is shown, so it needs no access to the game.

- *easy* melds and lays off whatever it can and discards its highest loose card.
- *normal* plans with the exact solver: it takes the discard (or, in Rummy 500, a deeper
  part of the pile) when that improves its best arrangement, plays its best arrangement,
  keeps cards that are one draw from a meld, and avoids feeding the next player.
- *hard* plans like *normal*, but judges its draws and discards by every card the stock
  may give it next, within a time budget per move; in Rummy 500 it also minds the cards
  of the pile a discard would let the next player dig down to; and in parlett and Rummy
  500, late in a round, a hand still far from going out lays its melds down instead of
  risking being caught with them.

The package, by what each part knows: :mod:`.levels` (what a computer player is),
:mod:`.hands` (card helpers the levels share), :mod:`.memory` (what a player remembers of
the others' picks), :mod:`.plans` (a solver plan as a legal action), :mod:`.easy`,
:mod:`.normal` and :mod:`.hard` (the levels; *hard*'s look-ahead beside it),
:mod:`.stand_in` (the timer's safe move, catching up mid-game), :mod:`.make` (players by
level, choosing in a worker process) and :mod:`.advice` (what /hint advises: *normal*'s move
in a person's seat, with its reasons).

No level throws a joker while another card may go, unless that discard goes out
(:func:`.hands._jokers_last`): it melds with any pair, so it is worth more kept than the 15
points it saves thrown, and the next player may pick it up.

Players are small picklable objects, so a move can be chosen in a worker process with
:func:`choose_in_process`; they hold no random generator of their own (one is passed in).
"""

from bot.rummy.computer.easy import EasyPlayer
from bot.rummy.computer.hands import _without, unseen_cards
from bot.rummy.computer.hard import HardPlayer, _Lookahead
from bot.rummy.computer.levels import DEFAULT_BUDGET, ComputerPlayer, Level
from bot.rummy.computer.make import choose_in_process, make_player
from bot.rummy.computer.memory import Memory, observe, remember
from bot.rummy.computer.normal import NormalPlayer, normal_action, ranked_discards
from bot.rummy.computer.stand_in import catch_up, safe_action

__all__ = [
    "DEFAULT_BUDGET",
    "ComputerPlayer",
    "EasyPlayer",
    "HardPlayer",
    "Level",
    "Memory",
    "NormalPlayer",
    "_Lookahead",
    "_without",
    "catch_up",
    "choose_in_process",
    "make_player",
    "normal_action",
    "observe",
    "ranked_discards",
    "remember",
    "safe_action",
    "unseen_cards",
]
