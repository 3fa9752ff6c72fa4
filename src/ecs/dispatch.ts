import { checkKeys, fail, isBits32, lowerBound, show } from '../core/internal.js';
import { keepPairs } from './collision.js';
import { Phase, type PhaseValue } from './components.js';
import { IN_TREE } from './entities.js';
import {
  byPriority,
  HANDLER_KEYS,
  HandlerRecord,
  type CollisionHandler,
  type CollisionHandlerOptions,
} from './handlers.js';
import { before } from './pairs.js';
import { stateOf, type QuadtreeState } from './state.js';

/**
 * Registers a collision handler, called by {@link quadtreeDispatchSystem} for the pairs whose
 * layers match, in the phases it asks for. Returns a function that unregisters it (call it
 * when the code that registered the handler goes, on a hot reload for instance: see
 * {@link getCollisionHandlers} and {@link clearCollisionHandlers}).
 *
 * Guarantees of the dispatch:
 * 1. **Order.** Handlers run highest priority first, ties in registration order. Each one
 *    gets, in this order: its deferred calls (oldest first); this frame's exits and enters
 *    by pair priority (high first), then entity index, an exit before an enter of the same
 *    two entities; then this frame's stays by pair priority, starting where the budget cut
 *    it last frame, if it did. Without a budget the order is fully deterministic.
 * 2. **Tier 0 is never cut.** A handler of priority 192-255 gets every call of the frame in
 *    the frame. Its calls count toward the budget.
 * 3. **Budget.** Once `maxCalls` calls (all handlers) or `maxMs` are spent, each later
 *    handler still makes `minCalls` calls; the rest waits for the next frame.
 * 4. **Enter and exit are events**: each reaches every handler that asked for it exactly
 *    once, in its frame or later, in order. A deferred enter is dropped only if its pair
 *    ended before it was delivered; the pair's exit still reaches handlers that asked for
 *    exits. A call deferred at place `p` (from 0) of a handler's backlog is made (or dropped
 *    as above) within `floor(p / minCalls) + 1` frames.
 * 5. **Stay is a level**: at most one stay per pair per frame, never before the handler got
 *    the pair's enter (stays wait while its backlog is not empty; a handler registered while
 *    a pair goes on gets its stays and exit without an enter), never replayed late. A
 *    stay cut by the budget is not queued: the pair gets its stay in a later frame, when the
 *    walk resumes at the cut. While the handler's enters and exits fit in its share, each
 *    pair that keeps overlapping gets a stay at least once every `ceil(S / minCalls)` frames
 *    (S = its matching stay pairs, if that set does not change).
 * 6. Enters and stays are not delivered for an entity removed (or stripped of Position or
 *    Bounds) earlier in the frame, by a handler for instance: that pair has ended and its
 *    exit comes next frame. Exits name the entities as they were, even if removed since:
 *    bitECS hands a removed entity's id to the next entity added, so by the time an exit
 *    call comes, its id may belong to a new entity. An exit handler should not read or
 *    remove by that id without knowing the entity is still the one it paired.
 * 7. **A handler that throws costs no other call.** The dispatch goes on with every other
 *    call of the frame (the one that threw counts as made: it is not called again), and then
 *    throws: the handler's own error if one call threw, an `AggregateError` whose `errors`
 *    are all of them in call order if several did. The stats and backlogs are those of a
 *    complete dispatch, and the next frame goes on as if nothing had thrown. In a `pipe`,
 *    the systems after the dispatch do not run that frame: put it last, or catch around it.
 *
 * A handler registered while pairs exist gets their stays and exits without an enter.
 *
 * @throws if `handler` is not a function, an option is out of range, or `options` has a key
 * {@link CollisionHandlerOptions} does not (named with the closest valid one)
 * @example
 * onCollision(world, (bullet, enemy) => removeEntity(world, bullet),
 *   { layer: BULLET, other: ENEMY, priority: 255, phases: Phase.Enter });
 */
export function onCollision(
  world: object,
  handler: CollisionHandler,
  options: CollisionHandlerOptions = {},
): () => void {
  const s = stateOf(world);
  if (typeof handler !== 'function') fail(`onCollision expects a function (got ${show(handler)})`);
  // A misspelled key (`phaze`) would otherwise leave its default in force: every phase, say.
  checkKeys('handler option', options, HANDLER_KEYS);
  const layer = bits('layer', options.layer ?? -1);
  const other = bits('other', options.other ?? -1);
  const priority = options.priority ?? 128;
  if (!Number.isInteger(priority) || priority < 0 || priority > 255) {
    fail(`handler priority must be an integer 0..255 (got ${show(priority)})`);
  }
  const phases = options.phases ?? Phase.All;
  if (!Number.isInteger(phases) || phases < 1 || phases > Phase.All) {
    fail(`handler phases must be bits of Phase, at least one (got ${show(phases)})`);
  }
  keepPairs(s);
  const h = new HandlerRecord(handler, layer, other, priority, phases, s.handlerOrder++);
  s.handlers = s.handlers.concat(h).sort(byPriority);
  return () => {
    if (!h.active) return;
    h.active = false;
    s.handlers = s.handlers.filter((x) => x !== h);
  };
}

/**
 * The world's registered collision handlers, in the order the dispatch calls them (priority
 * high first, ties in registration order), as a new array. Its length is how many there
 * are: a debug HUD can show it to see that handlers do not pile up across hot reloads.
 */
export function getCollisionHandlers(world: object): CollisionHandler[] {
  return stateOf(world).handlers.map((h) => h.fn);
}

/**
 * Unregisters every collision handler of the world, those other modules registered too, and
 * drops their deferred calls. Returns how many there were. The functions {@link onCollision}
 * returned for them do nothing afterwards. For hot reload, when the module that registers all
 * the handlers is replaced; a snapshot saved before is refused by {@link restoreQuadtree}, as
 * after any change of handlers.
 */
export function clearCollisionHandlers(world: object): number {
  const s = stateOf(world);
  const cleared = s.handlers;
  for (const h of cleared) h.active = false;
  s.handlers = [];
  return cleared.length;
}

function bits(field: string, value: number): number {
  if (!isBits32(value)) {
    fail(`handler ${field} must be a 32-bit integer of layer bits (got ${show(value)})`);
  }
  if ((value | 0) === 0) fail(`handler ${field} is 0: it would match no entity (got 0)`);
  return value | 0;
}

/**
 * The dispatch system: calls the registered handlers for the last collision step's pairs,
 * highest priority first, within the dispatch budget (see {@link onCollision} for what is
 * guaranteed). Run it after {@link quadtreeCollisionSystem}; it serves each collision step
 * once (run again without a new step, it calls nothing).
 *
 * @throws once every call of the frame was made, what a handler threw: its own error, or an
 * `AggregateError` of all of them (in call order) if several calls threw
 */
export function quadtreeDispatchSystem<W extends object>(world: W): W {
  const s = stateOf(world);
  const started = performance.now();
  s.dispatch.calls = 0;
  s.dispatch.over = false;
  s.dispatch.started = started;
  s.dispatch.nextClock = 0;
  s.dispatch.handlerMs = 0;
  s.dispatch.offset = s.tree.stepCount & 255;
  let cut = 0;
  let deferred = 0;
  const handlers = s.handlers;
  // Once per collision step: a second run (or one before any step) has nothing new to say.
  if (s.dispatchedStep !== s.tree.stepCount) {
    s.dispatchedStep = s.tree.stepCount;
    for (let n = 0; n < handlers.length; n++) {
      const h = handlers[n];
      if (!h.active) continue;
      if (serve(s, h)) cut++;
      deferred += h.count;
    }
  }
  const stats = s.stats;
  stats.handlerCalls = s.dispatch.calls;
  stats.handlerDeferred = deferred;
  stats.handlersCut = cut;
  stats.dispatchMs = performance.now() - started;
  // An estimate from sampled calls, so it may overshoot the measured total by a little.
  stats.handlerMs = Math.min(s.dispatch.handlerMs, stats.dispatchMs);
  if (s.handlerErrors.length > 0) throwHandlerErrors(s.handlerErrors);
  return world;
}

/**
 * One handler call. What it throws is kept for the end of the dispatch, so that one failing
 * handler costs the others none of their events: an enter not delivered now is a stay next
 * frame, and would be lost.
 */
function call(s: QuadtreeState, h: HandlerRecord, self: number, other: number, phase: PhaseValue, p: number): void {
  const d = s.dispatch;
  const j = d.made++;
  d.calls++;
  // The clock costs more than a small handler: the first 8 calls are timed, then one in 256,
  // at an offset that turns with the step so that every place in the order gets its turn.
  if (j < 8 || ((j + d.offset) & 255) === 0) timedCall(s, h.fn, self, other, phase, p);
  else invoke(s, h.fn, self, other, phase, p);
}

/**
 * A handler call whose time is added to the dispatch's `timedMs`. A timed interval holds a
 * clock read and the call's own cost besides the handler: the same interval around a handler
 * that does nothing takes them off. An untimed empty call first warms the path both take, or
 * the first interval pays alone for the code this rare path brings back into the caches.
 */
function timedCall(
  s: QuadtreeState,
  fn: CollisionHandler,
  self: number,
  other: number,
  phase: PhaseValue,
  p: number,
): void {
  invoke(s, nothing, self, other, phase, p);
  const t0 = performance.now();
  invoke(s, nothing, self, other, phase, p);
  const t1 = performance.now();
  invoke(s, fn, self, other, phase, p);
  s.dispatch.timedMs += performance.now() - t1 - (t1 - t0);
  s.dispatch.timed++;
}

/** One handler call; what it throws is kept for the end of the dispatch. */
function invoke(
  s: QuadtreeState,
  fn: CollisionHandler,
  self: number,
  other: number,
  phase: PhaseValue,
  p: number,
): void {
  try {
    fn(self, other, phase, p);
  } catch (error) {
    s.handlerErrors.push(error);
  }
}

function nothing(): void {
  // The handler the timing of a call subtracts: an empty one.
}

/** Throws what the handlers threw: the error itself if only one, else an AggregateError of all. */
function throwHandlerErrors(errors: unknown[]): never {
  const all = errors.splice(0);
  if (all.length === 1) throw all[0];
  const first = all[0] instanceof Error ? all[0].message : String(all[0]);
  throw new AggregateError(all, `bitecs-quadtree: ${all.length} collision handler calls threw; the first: ${first}`);
}

/** One handler's share of the frame, and its time. Returns true if the budget cut it. */
function serve(s: QuadtreeState, h: HandlerRecord): boolean {
  const d = s.dispatch;
  d.made = 0;
  d.timed = 0;
  d.timedMs = 0;
  const cut = serveCalls(s, h);
  // The untimed calls are counted at the mean of the timed ones.
  if (d.timed > 0 && d.timedMs > 0) d.handlerMs += (d.timedMs * d.made) / d.timed;
  return cut;
}

/** The calls of one handler's share of the frame. Returns true if the budget cut it. */
function serveCalls(s: QuadtreeState, h: HandlerRecord): boolean {
  const tier0 = h.priority >= 192;
  let cut = false;
  const tree = s.tree;
  while (h.count > 0) {
    if (!mayCall(s, tier0)) {
      cut = true;
      break;
    }
    const i = h.front();
    const phase = h.phase[i] as PhaseValue;
    const self = h.selfEid[i];
    const other = h.otherEid[i];
    const priority = h.pairPriority[i];
    const stale = phase === Phase.Enter && tree.pairStartedAt(h.pairA[i], h.pairB[i]) !== h.startedAt[i];
    h.shift();
    if (stale) continue;
    call(s, h, self, other, phase, priority);
  }
  if ((h.phases & (Phase.Enter | Phase.Exit)) !== 0) cut = edges(s, h, tier0, cut);
  if ((h.phases & Phase.Stay) === 0) return cut;
  // Stays wait until the handler has had every enter: none before its pair's enter.
  if (cut || h.count > 0) return true;
  return stays(s, h, tier0);
}

function mayCall(s: QuadtreeState, tier0: boolean): boolean {
  if (tier0 || s.dispatch.made < s.minCalls) return true;
  if (s.dispatch.over) return false;
  if (s.dispatch.calls >= s.maxCalls) {
    s.dispatch.over = true;
    return false;
  }
  // The clock is read at the first call past a minimum, then every 8 calls.
  if (s.maxMs !== Infinity && s.dispatch.calls >= s.dispatch.nextClock) {
    s.dispatch.nextClock = s.dispatch.calls + 8;
    if (performance.now() - s.dispatch.started >= s.maxMs) {
      s.dispatch.over = true;
      return false;
    }
  }
  return true;
}

/** 1 if (a, b) matches (self = a), 2 if (b, a) matches, 0 if neither. */
function side(h: HandlerRecord, la: number, lb: number): number {
  if ((la & h.layer) !== 0 && (lb & h.other) !== 0) return 1;
  if ((lb & h.layer) !== 0 && (la & h.other) !== 0) return 2;
  return 0;
}

/** This frame's exits and enters, merged in pair order; what does not fit is deferred. */
function edges(s: QuadtreeState, h: HandlerRecord, tier0: boolean, cutAlready: boolean): boolean {
  const tree = s.tree;
  const ex = tree.exited;
  const en = tree.entered;
  // Entity arrays are read through `ent` every time: a handler adding entities may grow them.
  const ent = s.entities;
  const frame = tree.stepCount;
  let cut = cutAlready;
  let k = (h.phases & Phase.Exit) !== 0 ? 0 : ex.count;
  let j = (h.phases & Phase.Enter) !== 0 ? 0 : en.count;
  while (k < ex.count || j < en.count) {
    let phase: PhaseValue;
    let a: number, b: number, p: number, la: number, lb: number;
    if (k < ex.count && (j >= en.count || !before(en, j, ex, k))) {
      phase = Phase.Exit;
      a = ex.a[k];
      b = ex.b[k];
      p = ex.priority[k];
      la = s.exitLayerA[k];
      lb = s.exitLayerB[k];
      k++;
    } else {
      phase = Phase.Enter;
      a = en.a[j];
      b = en.b[j];
      p = en.priority[j];
      j++;
      if (ent.status[a] !== IN_TREE || ent.status[b] !== IN_TREE) continue;
      la = ent.layer[a];
      lb = ent.layer[b];
    }
    const m = side(h, la, lb);
    if (m === 0) continue;
    const self = m === 1 ? a : b;
    const other = m === 1 ? b : a;
    if (!cut && !mayCall(s, tier0)) cut = true;
    if (cut) {
      h.defer(self, other, a, b, frame, phase, p);
      continue;
    }
    call(s, h, self, other, phase, p);
  }
  return cut;
}

/** This frame's stays, from the cursor round to it. Returns true if the budget cut them. */
function stays(s: QuadtreeState, h: HandlerRecord, tier0: boolean): boolean {
  const cur = s.tree.current;
  let start = h.cursorSet ? lowerBound(cur, cur.count, h.cursorPriority, h.cursorA, h.cursorB) : 0;
  if (start >= cur.count) start = 0;
  let stop = staySegment(s, h, tier0, start, cur.count);
  if (stop < 0 && start > 0) stop = staySegment(s, h, tier0, 0, start);
  if (stop < 0) {
    h.cursorSet = false;
    return false;
  }
  h.cursorSet = true;
  h.cursorPriority = cur.priority[stop];
  h.cursorA = cur.a[stop];
  h.cursorB = cur.b[stop];
  return true;
}

/** Stays of current[from..to); returns the index the budget stopped at, or -1. */
function staySegment(s: QuadtreeState, h: HandlerRecord, tier0: boolean, from: number, to: number): number {
  const cur = s.tree.current;
  const en = s.tree.entered;
  const ent = s.entities;
  let j = from === 0 ? 0 : lowerBound(en, en.count, cur.priority[from], cur.a[from], cur.b[from]);
  for (let i = from; i < to; i++) {
    const a = cur.a[i];
    const b = cur.b[i];
    while (j < en.count && before(en, j, cur, i)) j++;
    if (j < en.count && en.a[j] === a && en.b[j] === b) {
      j++;
      continue;
    }
    if (ent.status[a] !== IN_TREE || ent.status[b] !== IN_TREE) continue;
    const m = side(h, ent.layer[a], ent.layer[b]);
    if (m === 0) continue;
    if (!mayCall(s, tier0)) return i;
    call(s, h, m === 1 ? a : b, m === 1 ? b : a, Phase.Stay, cur.priority[i]);
  }
  return -1;
}
