"""Text forms of the table, the hands, the lobby and the scores, and the compact action codes
that select menus carry.

Every picture the bot sends has a text twin built here: screen readers, phones and people
who copy cards into a command read the text, so it names everything the picture shows that
a player needs to act (whose turn, the piles, the melds with the numbers to type). Pure
functions of engine values, so they are tested without Discord.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from discord.utils import escape_markdown, escape_mentions

from bot.i18n import number, t, tn
from bot.rummy import (
    Action,
    Card,
    Discard,
    DrawStock,
    EndRound,
    GameView,
    LayOff,
    Meld,
    RoundEnd,
    RoundResult,
    Ruleset,
    Scoring,
    SwapJoker,
    TableMeld,
    TakeDiscard,
    parse_action,
)
from bot.rummy.cards import HIGH_ACE
from bot.rummy.melds import MeldKind, Reading, Slot
from bot.sessions import Seat, SeatKind
from cogs.ui import positions
from cogs.ui.rule_words import rules_lines

MESSAGE_LIMIT = 2000
"""Discord refuses message content longer than this."""
PHONE_TEXT = 600
"""About what a phone shows of a message without scrolling: a table text longer than this
is told shorter (melds by owner, runs as their ends, moves by the melds they touched,
stock draws unsaid, the earliest turns counted), losing nothing the picture shows."""
VALUE_LIMIT = 100
"""Discord's limit for a select option's value, label and a custom id."""


HIGH_ACE_KEY = "card.high"
"""The mark of an ace above the king (``A♠(high)``), in the reader's words."""


def card_text(card: Card) -> str:
    """A card as people read and type it, in every language the same as the pictures draw
    it (``Q♠``); twins look alike (the engine picks the copy). Other spellings (``Qs``,
    Russian ``Дп``, Czech ``eso srdce``) are read when typed, and the help says so."""
    return card.face_text


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(card_text(c) for c in cards)


def slot_text(slot: Slot, loc: str | None = None) -> str:
    """A card in a meld as people read it: ``JK=7♥``, ``A♠(high)`` (``A♠(старший)`` for a
    Russian reader; :func:`cogs.ui.typed.clean` reads either back), never which deck's copy it
    is (``#`` belongs to meld numbers; the engine picks copies itself)."""
    card = slot.card
    text = str(Slot(Card(card.rank, card.suit), slot.rank, slot.suit) if card.copy else slot)
    if loc is None or slot.rank != HIGH_ACE:  # only an ace above the king has a mark
        return text
    english = t(HIGH_ACE_KEY, "en")
    if text.endswith(english):
        text = text.removesuffix(english) + t(HIGH_ACE_KEY, loc)
    return text


def slots_text(slots: Iterable[Slot], loc: str | None = None) -> str:
    """Cards of a meld one after another (see :func:`slot_text`)."""
    return " ".join(slot_text(s, loc) for s in slots)


def reading_text(reading: Reading, loc: str | None = None) -> str:
    """A meld's cards with what each joker stands for, copies unsaid (see :func:`slot_text`)."""
    return slots_text(reading.slots, loc)


def exact_text(cards: Iterable[Card]) -> str:
    """Cards naming their physical copy when it is not the first (``10♥#2``): what an
    autocomplete value carries, so it means exactly the card offered."""
    return " ".join(str(c) for c in cards)


def suit_sorted(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: c.sort_key)


def as_text(name: str) -> str:
    """A name a person chose, made to read as itself in a message: Discord's markdown
    escaped (a ``[link](…)`` or ``**bold**`` name shows its characters) and anything that
    looks like a mention broken by a zero-width space (``@everyone``, ``<@123>``), so a
    name can neither format a message nor look like a ping. The one place names are made
    safe for message texts; pictures and thread names (plain text) take the name as is."""
    escaped = escape_mentions(escape_markdown(name, ignore_links=False))
    return escaped.replace("<", "<\u200b")


def name_of(player: str | None, names: Mapping[str, str], *, markdown: bool = True) -> str:
    """The name shown for ``player``: escaped for a message text (see :func:`as_text`),
    as is for plain text (``markdown=False``: menu and autocomplete labels)."""
    if player is None:
        return "?"
    name = names.get(player) or player
    return as_text(name) if markdown else name


def fit(lines: Sequence[str], limit: int = MESSAGE_LIMIT) -> str:
    """Join lines, dropping the last ones (with an ellipsis) rather than going over ``limit``."""
    out: list[str] = []
    size = 0
    for line in lines:
        extra = len(line) + (1 if out else 0)
        if size + extra > limit - 2:
            out.append("…")
            break
        out.append(line)
        size += extra
    text = "\n".join(out)
    return text[:limit]


# --- rules and lobby ---------------------------------------------------------------------


def variant_name(ruleset: Ruleset, loc: str) -> str:
    return t(ruleset.variant.name_key, loc)


def lobby_text(
    ruleset: Ruleset,
    players: Sequence[str],
    host: str | None,
    loc: str,
    *,
    state: str = "open",
    timer: int | None = None,
) -> str:
    """The lobby message: who sits (``players``, from :func:`seat_names`), the rules, the
    turn timer (``timer`` minutes, 0: off; None: not shown) and what to do next. ``host`` is
    the host's name as they chose it (escaped here).

    ``state`` is ``open``, ``started`` or ``cancelled``.
    """
    heading = {
        "open": "lobby.title",
        "started": "lobby.title_started",
        "cancelled": "lobby.title_cancelled",
    }.get(state, "lobby.title")
    lines = [f"**{t(heading, loc, variant=variant_name(ruleset, loc))}**"]
    if host:
        lines.append(t("lobby.host", loc, host=as_text(host)))
    seated = ", ".join(players) if players else "—"
    lines.append(
        t("lobby.seated", loc, players=seated, count=len(players), most=ruleset.max_players)
    )
    lines.extend("• " + line for line in rules_lines(ruleset, loc))
    if timer is not None:
        lines.append(
            "• " + (t("lobby.timer", loc, minutes=timer) if timer else t("lobby.no_timer", loc))
        )
    if state == "open":
        lines.append(t("lobby.how", loc, low=tn("unit.players", ruleset.min_players, loc)))
    return fit(lines)


def thread_lobby_text(
    ruleset: Ruleset,
    players: Sequence[str],
    thread: str,
    loc: str,
    view: GameView | None,
    names: Mapping[str, str],
    game_id: int | None = None,
) -> str:
    """The lobby message of a game played in ``thread`` (a channel mention): one line while
    it is played, its final standings once it is over."""
    variant = variant_name(ruleset, loc)
    if view is None or not view.is_over:
        return t(
            "lobby.playing_in", loc, variant=variant, thread=thread, players=", ".join(players)
        )
    return fit(
        [
            t("lobby.played_in", loc, variant=variant, thread=thread),
            final_text(view, names, loc, game_id),
        ]
    )


# --- moves --------------------------------------------------------------------------------


def seat_names(seats: Sequence[Seat], loc: str) -> list[str]:
    """The lobby's list of who sits, in seat order; a computer player with its level, so
    people know what they are up against before they start."""
    names = []
    for seat in sorted(seats, key=lambda x: x.seat):
        if seat.kind is SeatKind.COMPUTER:
            level = t(f"level.{seat.level or 'normal'}", loc)
            name = as_text(seat.display_name)
            names.append(t("lobby.computer_seat", loc, name=name, level=level))
        else:
            names.append(as_text(seat.display_name))
    return names


def move_text(actor: str, action: Action, after: GameView | None, loc: str) -> str:
    """One line saying what ``actor`` (a display name) did."""
    match action:
        case DrawStock():
            return t("move.draw", loc, player=actor)
        case TakeDiscard(depth=depth):
            taken = _taken(after, depth)
            if depth == 1:
                return t("move.take", loc, player=actor, cards=taken)
            return tn("move.take_deep", depth, loc, player=actor, cards=taken)
        case EndRound():
            return t("move.end", loc, player=actor)
        case Meld(cards=cards, reading=reading):
            shown = reading_text(reading, loc) if isinstance(reading, Reading) else None
            return t("move.meld", loc, player=actor, cards=shown or cards_text(cards))
        case LayOff(cards=cards, meld_id=meld_id):
            return t("move.layoff", loc, player=actor, cards=cards_text(cards), meld=meld_id)
        case SwapJoker(meld_id=meld_id, card=card):
            return t("move.swap", loc, player=actor, card=card_text(card), meld=meld_id)
        case Discard(card=card):
            return t("move.discard", loc, player=actor, card=card_text(card))


def move_phrase(action: Action, after: GameView | None, loc: str) -> str:
    """What a move did, without who did it: the condensed form of "since your last turn",
    where a player's moves of one turn share one line."""
    match action:
        case DrawStock():
            return t("recent.draw", loc)
        case TakeDiscard(depth=depth):
            taken = _taken(after, depth)
            if depth == 1:
                return t("recent.take", loc, cards=taken)
            return tn("recent.take_deep", depth, loc, cards=taken)
        case EndRound():
            return t("recent.end", loc)
        case Meld(cards=cards, reading=reading):
            shown = reading_text(reading, loc) if isinstance(reading, Reading) else None
            return t("recent.meld", loc, cards=shown or cards_text(cards))
        case LayOff(cards=cards, meld_id=meld_id):
            return t("recent.layoff", loc, cards=cards_text(cards), meld=meld_id)
        case SwapJoker(meld_id=meld_id, card=card):
            return t("recent.swap", loc, card=card_text(card), meld=meld_id)
        case Discard(card=card):
            return t("recent.discard", loc, card=card_text(card))


def brief_phrase(action: Action, after: GameView | None, loc: str) -> str:
    """What a move did, as short as a table text for a phone says it: a meld by its number
    (its cards are in the list of melds under it), a lay-off or a joker taken by the meld
    it touched, a take from the pile by the cards taken."""
    match action:
        case TakeDiscard(depth=depth):
            return t("recent.take_brief", loc, cards=_taken(after, depth))
        case Meld(cards=cards) if (made := _made(after, cards)) is not None:
            return t("recent.meld_brief", loc, meld=made)
        case LayOff(meld_id=meld_id):
            return t("recent.layoff_brief", loc, meld=meld_id)
        case SwapJoker(meld_id=meld_id):
            return t("recent.swap_brief", loc, meld=meld_id)
    return move_phrase(action, after, loc)


def brief_moves(phrases: Sequence[str], loc: str) -> list[str]:
    """A turn's brief phrases without repeats, and without "drew from the stock" when the
    turn did more (a turn that took nothing from the pile drew from the stock)."""
    kept = list(dict.fromkeys(phrases))
    drew = t("recent.draw", loc)
    return [p for p in kept if p != drew] if len(kept) > 1 else kept


def _made(after: GameView | None, cards: Sequence[Card]) -> int | None:
    """The number of the newest meld of ``cards``' faces in the view after the move (the
    engine picks which deck's copies it melds)."""
    wanted = Counter(c.face for c in cards)
    found = [
        m.id
        for m in (after.melds if after is not None else ())
        if Counter(p.card.face for p in m.cards) == wanted
    ]
    return max(found, default=None)


def turn_line(player: str, moves: Sequence[str], names: Mapping[str, str], loc: str) -> str:
    """One player's turn on one line: ``• Bea: drew from the stock, discarded 7♥``."""
    return t("recent.line", loc, player=name_of(player, names), moves=", ".join(moves))


def round_over_line(result: RoundResult, names: Mapping[str, str], loc: str) -> str:
    """A round's end among the recent moves: ``• Round 2 is over. Ann went out.``"""
    return f"• {t('round.title', loc, round=result.round_no)} {_round_reason(result, names, loc)}"


def your_round_line(
    result: RoundResult, players: Sequence[str], viewer: str, loc: str, *, new_deal: bool
) -> str:
    """What a round's end meant for ``viewer``: their points, their total, the new deal."""
    if viewer not in players:
        return ""
    i = players.index(viewer)
    line = t(
        "recent.points",
        loc,
        points=number(result.points[i], loc),
        total=number(result.totals[i], loc),
    )
    return f"{line} {t('recent.new_deal', loc)}" if new_deal else line


def order_line(view: GameView, names: Mapping[str, str], loc: str) -> str | None:
    """Who played before the current player, who plays now, who plays next."""
    seats = [s.player for s in view.seats]
    if view.current is None or view.current not in seats or len(seats) < 2:
        return None
    i = seats.index(view.current)
    return t(
        "table.order",
        loc,
        previous=name_of(seats[i - 1], names),
        current=f"**{name_of(view.current, names)}**",
        next=name_of(seats[(i + 1) % len(seats)], names),
    )


def _taken(after: GameView | None, depth: int) -> str:
    if after is not None and after.drawn:
        return cards_text(after.drawn)
    return "?"


# --- the table ----------------------------------------------------------------------------


def meld_line(
    meld: TableMeld, names: Mapping[str, str], loc: str | None = None, *, markdown: bool = True
) -> str:
    cards = slots_text((p.slot for p in meld.cards), loc)
    return f"#{meld.id} ({name_of(meld.owner, names, markdown=markdown)}): {cards}"


def meld_cards(meld: TableMeld, loc: str | None = None) -> str:
    """A meld's cards, a run as its ends (``4♥–7♥``) and the jokers between them with what
    they stand for (``3♥–K♥ (JK=4♥)``) when that says it shorter."""
    shown = [slot_text(p.slot, loc) for p in meld.cards]
    every = " ".join(shown)
    if meld.kind is not MeldKind.RUN or len(shown) < 4:
        return every
    jokers = [text for text in shown[1:-1] if "=" in text]
    ends = f"{shown[0]}–{shown[-1]}" + (f" ({' '.join(jokers)})" if jokers else "")
    return ends if len(ends) < len(every) else every


def melds_by_owner(view: GameView, names: Mapping[str, str], loc: str | None = None) -> list[str]:
    """Every meld with its number, one line per player who made melds, in seat order."""
    lines = []
    for seat in view.seats:
        mine = [m for m in view.melds if m.owner == seat.player]
        if mine:
            melds = " · ".join(f"#{m.id} {meld_cards(m, loc)}" for m in mine)
            lines.append(f"{name_of(seat.player, names)}: {melds}")
    return lines


def table_text(
    view: GameView,
    names: Mapping[str, str],
    loc: str,
    *,
    recent: Sequence[str] = (),
    recent_brief: Sequence[str] | None = None,
    mentions: Mapping[str, str] | None = None,
) -> str:
    """The table in words: turn, order of play, piles, scores, every move since the current
    player's previous turn (``recent``, one line a turn) and every meld with its number.

    Longer than :data:`PHONE_TEXT`, it is told shorter: the melds by owner, a run as its
    ends, the scores with bare card counts, the turns in ``recent_brief`` (the same turns
    with :func:`brief_phrase`; without it, ``recent`` with "drew from the stock" left out
    of a turn that did more), and, when even that is too long, the earliest turns only
    counted. Everything the picture shows stays in."""
    full = _table_lines(view, names, loc, recent, mentions, brief=False)
    if len("\n".join(full)) <= PHONE_TEXT:
        return fit(full)
    if recent_brief is None:
        drew = f"{t('recent.draw', loc)}, "
        recent_brief = [line.replace(drew, "") for line in recent]
    return fit(_table_lines(view, names, loc, recent_brief, mentions, brief=True))


def _table_lines(
    view: GameView,
    names: Mapping[str, str],
    loc: str,
    recent: Sequence[str],
    mentions: Mapping[str, str] | None,
    *,
    brief: bool,
) -> list[str]:
    lines = [
        "**"
        + t(
            "table.title",
            loc,
            variant=variant_name(view.ruleset, loc),
            round=view.round_no,
            turn=view.turn,
        )
        + "**"
    ]
    if view.is_over:
        winners = ", ".join(name_of(w, names) for w in view.winners) or "—"
        lines.append(t("table.over", loc, winners=winners))
    elif view.current is not None:
        who = (mentions or {}).get(view.current) or name_of(view.current, names)
        step = t("table.step_draw" if view.phase.value == "draw" else "table.step_play", loc)
        lines.append(t("table.turn", loc, player=who, step=step))
        order = order_line(view, names, loc)
        if order is not None:
            lines.append(order)
    lines.append(
        t(
            "table.piles",
            loc,
            stock=tn("unit.cards", view.stock_size, loc),
            discard=tn("unit.cards", view.discard_size, loc),
        )
    )
    dealer = next((seat.player for seat in view.seats if seat.is_dealer), None)
    if dealer is not None and not view.is_over:
        lines.append(t("table.dealer", loc, player=name_of(dealer, names)))
    if view.discard:
        if view.ruleset.deep_discard:
            lines.append(t("table.pile", loc, cards=cards_text(view.discard)))
        else:
            lines.append(t("table.top", loc, card=card_text(view.discard[-1])))
    lines.append(scores_line(view, names, loc, brief=brief))
    if recent and view.current is not None and not view.is_over:
        lines.append(t("table.since", loc, player=name_of(view.current, names)))
    after: list[str] = []
    if view.melds:
        after.append(t("table.melds_brief" if brief else "table.melds", loc))
        if brief:
            after.extend(melds_by_owner(view, names, loc))
        else:
            after.extend(meld_line(m, names, loc) for m in view.melds)
    else:
        after.append(t("table.no_melds", loc))
    if brief:
        room = PHONE_TEXT - len("\n".join([*lines, *after]))
        recent = _latest_turns(recent, room, loc)
    return [*lines, *recent, *after]


def _latest_turns(recent: Sequence[str], room: int, loc: str) -> list[str]:
    """The latest turn lines that fit ``room`` characters, after a line counting the
    earlier ones; at least the latest turn."""
    kept: list[str] = []
    size = 0
    for n, line in enumerate(reversed(recent)):
        earlier = len(recent) - n - 1
        note = len(tn("table.earlier", earlier, loc)) + 1 if earlier else 0
        if kept and size + len(line) + 1 + note > room:
            break
        kept.insert(0, line)
        size += len(line) + 1
    earlier = len(recent) - len(kept)
    return ([tn("table.earlier", earlier, loc)] if earlier else []) + kept


def scores_line(view: GameView, names: Mapping[str, str], loc: str, *, brief: bool = False) -> str:
    """Each player's score and the cards they hold, in seat order; ``brief``, the card
    counts bare, under a heading that says what they count."""

    def held(count: int) -> str:
        return number(count, loc) if brief else tn("unit.cards", count, loc)

    scores = " · ".join(
        f"{name_of(s.player, names)} {number(s.score, loc)} ({held(s.hand_size)})"
        for s in view.seats
    )
    key = "table.scores_brief" if brief else "table.scores"
    return t(key, loc, scores=scores, target=number(view.target, loc))


# --- a hand -------------------------------------------------------------------------------


def hand_line(view: GameView, loc: str, sort_by: str = "suit") -> str:
    """The viewer's cards on one line, in the order of their hand picture (``sort_by``, the
    viewer's choice): what a hand message is tidied to once its turn is over (and the first
    line of every hand text)."""
    hand = positions.shown_hand(view.hand, sort_by)
    return t("hand.cards", loc, count=len(hand), cards=cards_text(hand) or "—")


def hand_text(
    view: GameView,
    names: Mapping[str, str],
    loc: str,
    *,
    recent: Sequence[str] | None = None,
    sort_by: str = "suit",
) -> str:
    """The viewer's hand for screen readers and copy-paste, with what they may do now;
    its cards in the order the viewer chose (``sort_by``), like their picture.

    ``recent`` (a hand in DMs): the lines of what happened since the viewer's last turn;
    the DM then also gives every player's cards and score, and names no slash command,
    since none can be used there."""
    lines = [hand_line(view, loc, sort_by)]
    if view.hand:
        lines.append(t("hand.numbered", loc, cards=positions.numbered(view.hand, sort_by)))
    if view.drawn:
        lines.append(t("hand.drawn", loc, cards=cards_text(view.drawn)))
    if view.no_discard is not None:
        lines.append(t("hand.keep", loc, card=card_text(view.no_discard)))
    if view.must_use is not None:
        lines.append(t("hand.must_use", loc, card=card_text(view.must_use)))
    if view.is_over:
        lines.append(t("hand.over", loc))
    elif view.current == view.viewer:
        top = card_text(view.discard[-1]) if view.discard else "—"
        if view.phase.value == "draw":
            lines.append(t("hand.your_turn_draw", loc, top=top))
        else:
            lines.append(t("hand.your_turn_play", loc))
    else:
        lines.append(t("hand.waiting", loc, player=name_of(view.current, names)))
    if recent is not None:
        if recent:
            lines.append(t("hand.since", loc))
            lines.extend(recent)
        lines.append(scores_line(view, names, loc))
    if view.melds:
        lines.append(t("table.melds" if recent is None else "hand.melds", loc))
        lines.extend(meld_line(m, names, loc) for m in view.melds)
    return fit(lines)


# --- round and game end -------------------------------------------------------------------


def round_text(
    result: RoundResult, players: Sequence[str], names: Mapping[str, str], loc: str
) -> str:
    """A finished round: how it ended, each hand's value, what each melded when melds
    score (Rummy 500), the points and the totals: all the round's picture shows."""
    reason = _round_reason(result, names, loc)
    lines = [f"**{t('round.title', loc, round=result.round_no)}** {reason}"]
    melds_score = any(result.placed_values)
    for i, player in enumerate(players):
        hand = result.hands[i] if i < len(result.hands) else ()
        lines.append(
            t(
                "round.line_melded" if melds_score else "round.line",
                loc,
                player=name_of(player, names),
                hand=cards_text(suit_sorted(hand)) or "—",
                value=number(result.hand_values[i], loc),
                melded=number(result.placed_values[i], loc),
                points=number(result.points[i], loc),
                total=number(result.totals[i], loc),
            )
        )
    return fit(lines)


def _round_reason(result: RoundResult, names: Mapping[str, str], loc: str) -> str:
    who = name_of(result.ender, names)
    return {
        RoundEnd.WENT_OUT: t("round.went_out", loc, player=who),
        RoundEnd.ENDED: t("round.ended", loc, player=who),
        RoundEnd.BLOCKED: t("round.blocked", loc),
    }[result.reason]


def final_text(
    view: GameView, names: Mapping[str, str], loc: str, game_id: int | None = None
) -> str:
    """Final standings, best first as the rules rank them; with the game's number, how to
    watch it again."""
    order = sorted(
        view.seats, key=lambda s: s.score, reverse=view.ruleset.scoring is not Scoring.NEGATIVE
    )
    winners = ", ".join(name_of(w, names) for w in view.winners) or "—"
    lines = [f"**{t('final.title', loc)}** {t('final.winners', loc, winners=winners)}"]
    for place, seat in enumerate(order, start=1):
        lines.append(
            t(
                "final.line",
                loc,
                place=place,
                player=name_of(seat.player, names),
                score=number(seat.score, loc),
            )
        )
    if game_id is not None:
        lines.append(t("replay.offer", loc, game=game_id))
    return fit(lines)


# --- what select menus carry --------------------------------------------------------------


def action_code(action: Action, view: GameView) -> str | None:
    """The value a menu option carries for ``action``: the engine's text form, which parses
    back to exactly this action (copies and readings included); None when it would not fit
    in an option's value."""
    code = str(action)
    return code if len(code) <= VALUE_LIMIT else None


def decode_action(code: str) -> Action:
    """The action of a menu value; a PlayerError for anything that is not one."""
    return parse_action(code)


def action_label(action: Action, view: GameView, loc: str | None = None) -> str:
    """What a menu option shows: the cards, with what each joker stands for."""
    match action:
        case Meld(cards=cards, reading=reading):
            text = reading_text(reading, loc) if isinstance(reading, Reading) else cards_text(cards)
        case LayOff(cards=cards, meld_id=meld_id, reading=reading):
            shown = reading_text(reading, loc) if isinstance(reading, Reading) else None
            text = f"{shown or cards_text(cards)} → #{meld_id}"
        case SwapJoker(meld_id=meld_id, card=card):
            text = f"{card_text(card)} ⇄ JK #{meld_id}"
        case Discard(card=card):
            text = card_text(card)
        case TakeDiscard(depth=depth):
            pile = view.discard[-depth:] if depth <= len(view.discard) else ()
            text = f"{depth}: {cards_text(pile)}"
        case _:
            text = str(action)
    return text if len(text) <= VALUE_LIMIT else text[: VALUE_LIMIT - 1] + "…"
