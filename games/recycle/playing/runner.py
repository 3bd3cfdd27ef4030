"""Run a compiled RECYCLE program: from one player's choice to the next.

Play is a stack of frames, one per stage being run. A stage's round first
checks its end condition, then runs its parts in order; a ``do`` runs at once, a
nested stage is entered with a copy of the current player cycle (as CardStock
does), and a choice with at least one option stops the run until the current
player picks one. A choice with no option is passed over. After a round the
stage's cycle moves on: to the player queued by ``cycle next``, else the next
seat. The game ends when its own body is done.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from games.engine import NO_EVENTS, IllegalMoveError
from games.recycle.compiling.decisions import END
from games.recycle.compiling.picks import Offer
from games.recycle.compiling.program import DO, STAGE, Program
from games.recycle.errors import RecycleRuntimeError
from games.recycle.playing.bounds import CLOCK_EVERY, check_time
from games.recycle.playing.state import RecycleState, fresh_shown, owner_label


def start(prog: Program, players: int, options: dict[str, Any], seed: int) -> RecycleState:
    """Set up a new game from ``seed`` and run it to the first choice."""
    st = RecycleState()
    st.players, st.options, st.seed = players, options, seed
    st.locs, st.sto, st.strs, st.points = {}, {}, {}, {}
    st.cycles, st.tcycles, st.frames = [[0, -1]], [[0, -1]], [[0, 0]]
    st.choice, st.shuffles, st.moves, st.steps = None, 0, 0, 0
    st.began, st.dealt = None, None
    st.over, st.error, st.last, st.cache = False, None, None, None
    st.shown = fresh_shown()
    guarded(prog, st, _setup_and_run)
    st.dealt = deal_record(prog, st)
    return st


def _setup_and_run(prog: Program, st: RecycleState) -> None:
    for action in prog.setup_actions:
        action(st, {})
    run(prog, st)


def guarded(prog: Program, st: RecycleState, body: Any) -> None:
    """Run ``body``; if it passes a bound, end the game with the error and raise it."""
    try:
        body(prog, st)
    except RecycleRuntimeError as error:
        _fail(st, str(error))
        raise
    except RecursionError:
        _fail(st, "the description recursed too deeply")
        raise RecycleRuntimeError(st.error) from None


def run(prog: Program, st: RecycleState) -> None:
    """Play on until a choice with at least one option, or the end of the game."""
    frames, plans, limit = st.frames, prog.stage_plans, prog.max_steps
    if frames and _next_round(prog, st, frames[-1], limit):
        return
    plays_plans = prog.plays_plans
    while frames:
        frame = frames[-1]
        ident, index = frame
        team, end, items, node, count = plans[ident]
        cycles = st.tcycles if team else st.cycles  # the stage's cycle stays on top while it runs
        steps = st.steps  # counted here, written back before anything else counts
        while True:  # the steps of this stage, until it ends or enters another
            steps += 1
            if steps > limit or not steps & CLOCK_EVERY:
                st.steps = steps
                _stage_bounds(st, node, limit)
            if index == -1:
                if end(st, _NO_VARIABLES):
                    frames.pop()
                    cycles.pop()
                    break
                index = frame[1] = 0
            if index >= count:
                if not ident:
                    frames.pop()
                    break
                cycle = cycles[-1]
                if cycle[1] >= 0:
                    cycle[0], cycle[1] = cycle[1], -1
                else:
                    cycle[0] = (cycle[0] + 1) % (len(prog.teams) if team else st.players)
                index = frame[1] = -1
                continue
            what, payload = items[index]
            index = frame[1] = index + 1
            if what is DO:
                st.steps = steps
                payload(st, _NO_VARIABLES)
                steps = st.steps
            elif what is STAGE:
                if plans[payload][0]:
                    st.tcycles.append([st.tcycles[-1][0], -1])
                else:
                    st.cycles.append([st.cycles[-1][0], -1])
                frames.append([payload, -1])
                break
            else:  # the plays listed at once when they can be (most choices), else built
                env = {}
                plan = plays_plans[payload]
                found = (plan is not None and plays_of(prog, st, plan, env)) or build_options(
                    prog, st, payload, env, plan is not None
                )
                if found[0]:  # a choice with no option is passed over
                    st.steps = steps
                    st.choice, st.cache = payload, found
                    return
        st.steps = steps
    st.over, st.choice, st.cache = True, None, None


_NO_VARIABLES: dict = {}  # conditions and actions read their env, never change it (they copy it)


def _next_round(prog: Program, st: RecycleState, frame: list, limit: int) -> bool:
    """After a move in a stage whose round is one choice (a trick): its next round at once.

    The very steps ``run``'s loop takes (the cycle's step, then the end check and the
    choice), without walking the stage's plan; only where neither step meets a bound.
    Return whether it stopped at the choice; otherwise the state is as the loop leaves it
    after those steps, and the loop goes on from there.
    """
    ident, index = frame
    found = prog.choice_rounds.get(ident)
    steps = st.steps
    if found is None or index != 1 or (steps & CLOCK_EVERY) >= CLOCK_EVERY - 1 or steps + 2 > limit:
        return False
    team, end, choice, plan = found
    cycles = st.tcycles if team else st.cycles
    cycle = cycles[-1]
    if cycle[1] >= 0:
        cycle[0], cycle[1] = cycle[1], -1
    else:
        cycle[0] = (cycle[0] + 1) % (len(prog.teams) if team else st.players)
    frame[1] = -1  # as the loop leaves it should the end check raise
    if end(st, _NO_VARIABLES):
        st.frames.pop()
        cycles.pop()
        st.steps = steps + 2
        return False
    frame[1] = 1
    env = {}
    options = (plan is not None and plays_of(prog, st, plan, env)) or build_options(
        prog, st, choice, env, plan is not None
    )
    st.steps = steps + 2  # written once the steps are done, as the loop writes it
    if options[0]:
        st.choice, st.cache = choice, options
        return True
    return False  # passed over: the round is done (frame[1] is still 1)


def _stage_bounds(st: RecycleState, node: Any, limit: int) -> None:
    if st.steps > limit:
        raise RecycleRuntimeError(
            f"more than {limit} steps without a player's choice: does this stage ever end?",
            node.line,
            node.column,
        )
    if not st.steps & CLOCK_EVERY:
        check_time(st, node)


def _render(prog: Program, item: Any) -> Any:
    if isinstance(item, list):  # a collection of cards (an item of tuples, partition...)
        return [prog.names[c[1]] for c in item]
    if isinstance(item, tuple):
        if isinstance(item[0], tuple):
            return prog.names[item[1]]
        return f"team{item[1]}"
    return item


def build_options(
    prog: Program, st: RecycleState, choice: int, env: dict | None = None, tried: bool = False
) -> tuple[list[dict], list[list]]:
    """Return the options of ``choice`` now: the moves, without repeats, and each one's actions.

    A move is ``{"play": CARD}`` when every option plays one card (it binds one
    card and the cards differ), in card order; otherwise ``{"choice": [branch,
    item, ...]}``: the branch of the choice (0-based) and what each ``any``
    bound, in order. ``tried``: ``plays_of`` found no plays with this build's ``env``.
    """
    parts, _, plan = prog.choices[choice]
    if env is None:
        env = {}  # one per build: the parts share the collections they both read (fast.memoized)
    if plan is not None and not tried:
        plays = plays_of(prog, st, plan, env)
        if plays is not None:
            return plays
    found = []
    offers = []
    for branch, part in enumerate(parts):
        pick = getattr(part, "pick", None)
        if pick is not None:  # a subset picked: a few of its options listed (picks.py)
            options, offered = pick(st, env)
            if offered is not None:
                offers.append(Offer(branch, *offered))
        else:
            # An option that would do nothing is no option (CardStock drops it too).
            options = [option for option in part(st, env) if option[1]]
        if options:
            found.append((branch, options))
    if not found:
        return [], []
    plays = []
    order = prog.order
    for _, options in found:
        for bindings, acts in options:
            if len(bindings) != 1:
                break
            item = bindings[0]
            if type(item) is not tuple or type(item[0]) is not tuple:  # not a card
                break
            plays.append((order[item[1]], item[1], acts))
        else:
            continue
        break
    else:
        if len({p[0] for p in plays}) == len(plays):  # no card offered twice
            plays.sort(key=_FIRST)
            play_label = prog.play_label
            return [play_label[p[1]] for p in plays], [p[2] for p in plays]
    labels, actions, keys = [], [], set()
    for branch, options in found:
        for bindings, acts in options:
            label = [branch, *(_render(prog, item) for item in bindings)]
            key = repr(label)
            if key not in keys:
                keys.add(key)
                labels.append({"choice": label})
                actions.append(acts)
    if offers:
        labels = Listed(labels)
        labels.offers = offers
    return labels, actions


class Listed(list):
    """The moves listed of a choice with a pick: ``offers``, each pick's ``picks.Offer``."""

    __slots__ = ("offers",)


def offers_of(prog: Program, st: RecycleState) -> list[Offer]:
    """Return the pending choice's picks (``picks.Offer``), none for most choices."""
    return getattr(options_of(prog, st)[0], "offers", [])


def picked(prog: Program, st: RecycleState, move: Any) -> tuple[dict, list] | None:
    """Return ``(move, actions)`` for a set picked that is not listed, ``None`` when ``move`` is no
    pick's; raise ``IllegalMoveError`` saying why a set is not one the pick allows."""
    choice = move.get("choice") if isinstance(move, dict) and len(move) == 1 else None
    if not isinstance(choice, list) or len(choice) != 2 or type(choice[0]) is not int:
        return None
    for offer in offers_of(prog, st):
        if offer.branch == choice[0]:
            try:
                chosen = offer.admit(prog.names, choice[1])
            except ValueError as error:
                raise IllegalMoveError(f"{move} is not a pick you may make now: {error}") from None
            return {"choice": [choice[0], [prog.names[c[1]] for c in chosen]]}, [
                (offer.act, {**offer.setting.env, offer.var: chosen})
            ]
    return None


_FIRST = itemgetter(0)


class _Played:
    """The actions of a choice's card plays, each made only when its card is chosen."""

    __slots__ = ("offered", "parts")

    def __init__(self, offered: list[tuple], parts: list[tuple]) -> None:
        self.offered = offered  # (card order, card, part), in card order
        self.parts = parts  # (action, variable) of each part

    def __getitem__(self, index: int) -> list:
        _, item, part = self.offered[index]
        act, var = self.parts[part]
        return [(act, {var: item})]

    def __len__(self) -> int:
        return len(self.offered)


def plays_of(prog: Program, st: RecycleState, plan: tuple, env: dict) -> tuple[list[dict], Any] | None:
    """Return a choice's moves when every part offers cards (an ``any`` over cards, guarded or not).

    The same moves as ``build_options``' general way: one ``{"play": CARD}`` per
    card, in card order. ``None`` when a card is offered twice (then the general
    way makes ``choice`` moves). ``plan`` is ``choices.plays_plan``'s.
    """
    offers, parts, _, _, tree = plan
    if tree is not None and prog.order_unique:
        # The parts' tests and readings as a tree (decisions.py): what is settled is not made again.
        one = None
        while True:
            kind = type(tree)
            if kind is tuple:  # a test
                tree = tree[1] if tree[0](st, env) else tree[2]
            elif kind is list:  # a part's cards
                key, cards = tree[0](st, env)
                if cards:
                    one = tree[1], key, cards
                    tree = tree[2]
                else:
                    tree = tree[3]
            else:
                break
        if tree == END:
            if one is None:
                return _NONE
            i, key, cards = one
            if len(cards) > 1:
                if len(set(cards)) != len(cards):  # a card offered twice
                    return None
                cards = sorted(cards, key=prog.order_of)
            else:
                cards = [cards[0]]
            # The actions: (the location, its cards offered in card order, (action, variable)),
            # a card's action made only when it is played (make).
            return list(map(prog.label_of, cards)), (key, cards, parts[i])
    order = prog.order
    offered = None
    for i, cards in enumerate(offers):
        found = cards(st, env)
        if found:
            if offered is not None:
                offered.extend([(order[item[1]], item, i) for item in found])
            elif len(found) == 1:
                offered = [(order[found[0][1]], found[0], i)]
            else:
                offered = [(order[item[1]], item, i) for item in found]
    if offered is None:
        return _NONE
    if len(offered) > 1:
        if len({o[0] for o in offered}) != len(offered):
            return None
        offered.sort(key=_FIRST)
    label = prog.play_label
    return [label[o[1][1]] for o in offered], _Played(offered, parts)


_NONE: tuple[list, list] = ([], [])


def options_of(prog: Program, st: RecycleState) -> tuple[list[dict], list[list]]:
    """Return the pending choice's moves and their actions (cached on the state until it changes)."""
    if st.choice is None:
        return _NONE
    if st.cache is None:
        st.cache = build_options(prog, st, st.choice)
    return st.cache


def advance(prog: Program, st: RecycleState, seat: int, move: dict) -> tuple:
    """Make ``move`` (one of the options, or a set a pick allows) and play on to the next choice;
    return the contract's events (none).

    The contract's ``advance`` is this, bound to the program (``RecycleGame``): the searches
    make every move this way, so the option is found and made without a call more than it needs.
    """
    labels, actions = st.cache or options_of(prog, st)
    if type(labels) is not list and move not in labels:  # only a choice with a pick lists some moves
        found = picked(prog, st, move)
        if found is not None:
            make_actions(prog, st, seat, *found)
            return NO_EVENTS
    try:
        index = labels.index(move)
    except ValueError:  # pragma: no cover - the contract's checks come first
        raise RecycleRuntimeError(f"{move} is not a legal move now") from None
    if type(actions) is tuple:  # a card played from a location (plays_of): its one action, here
        key, cards, (act, var) = actions
        try:  # make_actions' steps, inline: the searches make every move this way
            st.steps, st.began = 0, None
            st.choice = st.cache = None
            act(st, {var: (key, cards[index])})
            st.moves += 1
            st.last = {"seat": seat, "move": labels[index]}
            run(prog, st)
            if not st.over and st.moves >= prog.max_moves:
                _too_long(prog, st)
        except RecycleRuntimeError as error:
            _fail(st, str(error))
            raise
        except RecursionError:
            _fail(st, "the description recursed too deeply")
            raise RecycleRuntimeError(st.error) from None
    else:
        make_actions(prog, st, seat, labels[index], actions[index])
    return NO_EVENTS


def make(prog: Program, st: RecycleState, seat: int, index: int) -> None:
    """Make the pending choice's option ``index`` and play on to the next choice."""
    labels, actions = st.cache or options_of(prog, st)
    if type(actions) is tuple:  # a card played from a location (plays_of): its one action
        key, cards, (act, var) = actions
        make_actions(prog, st, seat, labels[index], ((act, {var: (key, cards[index])}),))
    else:
        make_actions(prog, st, seat, labels[index], actions[index])


def make_actions(prog: Program, st: RecycleState, seat: int, move: dict, actions: Any) -> None:
    """Run an option's ``actions`` as the move ``move`` and play on to the next choice."""
    try:
        st.steps, st.began = 0, None
        st.choice, st.cache = None, None
        for act, env in actions:
            act(st, env)
        st.moves += 1
        st.last = {"seat": seat, "move": move}
        run(prog, st)
        if not st.over and st.moves >= prog.max_moves:
            _too_long(prog, st)
    except RecycleRuntimeError as error:
        _fail(st, str(error))
        raise
    except RecursionError:
        _fail(st, "the description recursed too deeply")
        raise RecycleRuntimeError(st.error) from None


def _too_long(prog: Program, st: RecycleState) -> None:
    # Name the innermost stage still being played: the one whose end never came.
    node = prog.stages[st.frames[-1][0]][3] if st.frames else None
    message = f"the game did not end within {prog.max_moves} moves (still in this stage)"
    raise RecycleRuntimeError(message, node and node.line, node and node.column)


def _fail(st: RecycleState, message: str) -> None:
    st.over, st.error, st.choice, st.cache = True, message, None, None


def deal_record(prog: Program, st: RecycleState) -> dict:
    """Return the cards as laid out now, in the log's ``deal`` shape.

    ``hands``: each seat's hidden (``iloc``) cards in card order; ``stock``: the
    game's hidden cards, top first; ``pool``: the game's face-up cards.
    """
    name = prog.names.__getitem__
    held: list[list[int]] = [[] for _ in range(st.players)]
    stock: list[str] = []
    pool: list[str] = []
    for (owner, kind, _), cards in st.locs.items():
        if kind == "iloc" and 0 <= owner < st.players:
            held[owner].extend(cards)
        elif kind == "iloc" and owner_label(owner) == "game":
            stock.extend(map(name, reversed(cards)))
        elif kind == "vloc" and owner_label(owner) == "game":
            pool.extend(map(name, reversed(cards)))
    # In the project's card order by name (a name it does not know last), ties as they lie.
    key = prog.hand_order.__getitem__
    hands = [list(map(name, sorted(cards, key=key))) for cards in held]
    return {"dealer": 0, "hands": hands, "stock": stock, "pool": pool, "crib": []}
