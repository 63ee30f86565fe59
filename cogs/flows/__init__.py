"""What a command or a component does, written once for both.

:mod:`.resolve` turns an interaction into who acts, in which game, at which seat;
:mod:`.lobby`, :mod:`.moves` and :mod:`.seat_flows` run the lobby, the moves and the seats;
:mod:`.settings`, :mod:`.replay` and :mod:`.erasure` the other ``/rummy`` subcommands;
:mod:`.clicks` gathers what the buttons and menus do. Every flow answers (or defers) first,
then asks the session, then presents the result; it never decides a rule.
"""
