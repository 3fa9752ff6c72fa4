import { And, Not, Or, registerQuery } from 'bitecs';
import {
  decodeValue,
  describe,
  encodeValue,
  fail,
  type Encoded,
  packBytes,
  type Parts,
  type QuadtreeSnapshot,
  readParts,
  stateParts,
  treeOptions,
  TYPED,
  unpackBytes,
  type BytesOptions,
} from '../core/internal.js';
import { keysOf, type FieldCopy } from './componentValues.js';
import { QuadtreeWorldSnapshot } from './snapshot.js';
import { findState, QuadtreeState, stateOf } from './state.js';
import { internalsOf, WorldSnapshot, type Internals, type Query } from './world.js';

const QUADTREE = "a world's quadtree";
const WORLD = 'a bitECS world';
const ADVICE = 'register the same handlers and make the same tile layers on this world first';

/**
 * Writes a world's collision snapshot (made by {@link saveQuadtree}) as bytes, for a file or
 * another process, where {@link quadtreeFromBytes} reads them back for a world with the plugin
 * added with the same options, the same handlers registered and the same tile layers. The
 * world's entities and components are the game's to write beside them. Given the bytes an
 * earlier call returned (`into`), it writes over their memory when it is big enough, as
 * `snapshotToBytes` does.
 * @throws if `snapshot` is not a snapshot saved by `saveQuadtree`, or `into` is not a Uint8Array
 */
export function quadtreeToBytes(snapshot: QuadtreeWorldSnapshot, into?: Uint8Array): Uint8Array {
  const owner: unknown = snapshot instanceof QuadtreeWorldSnapshot ? snapshot.state.owner : null;
  if (!(owner instanceof QuadtreeState))
    fail(`quadtreeToBytes takes a snapshot saved by saveQuadtree (got ${describe(snapshot)})`);
  const extra = {
    tracked: Array.from(snapshot.tracked.subarray(0, snapshot.trackedCount)),
    trackedMarks: Array.from(snapshot.trackedMarks.subarray(0, snapshot.trackedCount)),
    pairEntities: Array.from(snapshot.pairEntities.subarray(0, 3 * snapshot.pairEntityCount)),
    handlers: [snapshot.handlers.length],
  };
  return packBytes(collisionParts(snapshot, owner, extra), into, 'quadtreeToBytes');
}

/** Lists of numbers the world's collision snapshot keeps beside the core's state, in its description. */
type Extra = Record<'tracked' | 'trackedMarks' | 'pairEntities' | 'handlers', number[]>;

/** A world's collision snapshot as the parts of bytes: the core's state, `extra` added to its description. */
function collisionParts(snapshot: QuadtreeWorldSnapshot, s: QuadtreeState, extra: Extra): Parts {
  const { meta, sections } = stateParts(snapshot.state, QUADTREE, optionsOf(s));
  return { meta: { ...meta, extra }, sections };
}

/**
 * Reads bytes written by {@link quadtreeToBytes} into a snapshot of `world`'s collision state,
 * which {@link restoreQuadtree} then brings back once the world's entities are those of the
 * save, with the same ids. Nothing in the world changes until that restore.
 * @throws if `world` has no quadtree, or the bytes are not such a snapshot, are truncated or
 * corrupt, or were written under other options, handlers or tile layers; naming which
 */
export function quadtreeFromBytes(world: object, bytes: Uint8Array | ArrayBuffer): QuadtreeWorldSnapshot {
  const s = stateOf(world);
  return readCollision(s, unpackBytes(bytes, 'quadtreeFromBytes'), 'quadtreeFromBytes');
}

/** A world's collision snapshot read back from its parts, refused (naming both counts) under other handlers. */
function readCollision(
  s: QuadtreeState,
  parts: { meta: unknown; sections: Uint8Array[] },
  verb: string,
): QuadtreeWorldSnapshot {
  const extra = (parts.meta as { extra?: Partial<Extra> }).extra;
  const saved = extra?.handlers?.[0];
  // Bytes without the count go on to the shape check.
  if (saved !== undefined && saved !== s.handlers.length)
    fail(
      `${verb}: the snapshot was saved with other collision handlers (${saved} then, ${s.handlers.length} here): ${ADVICE}`,
    );
  return collision(s, readParts(s, parts, QUADTREE, optionsOf(s), verb, ADVICE), extra as Extra);
}

/** A world's collision snapshot from the state and lists read back. */
function collision(s: QuadtreeState, snapshot: QuadtreeSnapshot, extra: Extra): QuadtreeWorldSnapshot {
  const out = new QuadtreeWorldSnapshot();
  Object.assign(out.state, snapshot);
  out.tracked = Int32Array.from(extra.tracked);
  out.trackedMarks = Uint8Array.from(extra.trackedMarks);
  out.trackedCount = extra.tracked.length;
  out.pairEntities = Int32Array.from(extra.pairEntities);
  out.pairEntityCount = extra.pairEntities.length / 3;
  // The state's shape holds as many handler records; they are this world's own.
  out.handlers = s.handlers.slice();
  return out;
}

/** The options of the plugin a world's snapshot must be read back under. */
function optionsOf(s: QuadtreeState): BytesOptions {
  return {
    ...treeOptions(s.tree),
    pairEntities: s.pairEntities,
    scan: s.scan,
    skip: s.skip,
    entityLimit: s.idLimit,
  };
}

/** A world snapshot's description; its sections follow in this order (see worldToBytes). */
interface WorldMeta {
  kind: string;
  idCount: number;
  alive: number;
  maxId: number;
  /** Per registered component: its array fields, generation and bit. */
  components: { keys: string[]; generation: number; bit: number }[];
  generations: number;
  /** Per saved query: its terms as masks and as bitECS hashes them, whether buffered, its ids and removals, whether dirty. */
  queries: { terms: string; hash: string; buffered: boolean; count: number; pending: number; dirty: boolean }[];
  /** Per saved field: its component's place, key, and how it is held (typed, numbers with holes, or any). */
  fields: { component: number; key: string; type: string; count: number; holes: number; any: Encoded[] | null }[];
  /** The collision state's description, its sections last; null without a quadtree. */
  quadtree: unknown;
}

/**
 * Writes a world snapshot (made by {@link saveWorld}) as bytes, for a file or another process,
 * where {@link worldFromBytes} reads them back for a world set up as the saving one was: the
 * same components registered in the same order, and the plugin added with the same options,
 * handlers and tile layers. Given the bytes an earlier call returned (`into`), it writes over
 * their memory when it is big enough, else it allocates (fresh memory costs several times the
 * copy into it): a save every frame then writes into the same memory once warm. The bytes
 * returned are then a view of `into`'s buffer: send or write them, not their `.buffer`.
 * @throws if `snapshot` is not a snapshot saved by `saveWorld`, a component's plain array
 * holds something other than numbers, strings, booleans, null or undefined, or `into` is not a
 * Uint8Array
 */
export function worldToBytes(snapshot: WorldSnapshot, into?: Uint8Array): Uint8Array {
  if (!(snapshot instanceof WorldSnapshot) || snapshot.world === null)
    fail(`worldToBytes takes a snapshot saved by saveWorld (got ${describe(snapshot)})`);
  const ctx = internalsOf(snapshot.world, 'worldToBytes');
  const components = [...ctx.componentMap];
  const place = new Map(components.map(([c], i) => [c, i]));
  const ids = snapshot.maxId + 1;
  const sections: ArrayBufferView[] = [snapshot.ids.subarray(0, snapshot.idCount)];
  for (const m of snapshot.masks) sections.push(m.subarray(0, ids));
  const hashes = new Map([...ctx.queriesHashMap].map(([hash, q]) => [q, hash]));
  const queries = snapshot.queries.map((q, j) => {
    sections.push(snapshot.lists[j].subarray(0, snapshot.listCounts[j]));
    sections.push(snapshot.pending[j].subarray(0, snapshot.pendingCounts[j]));
    return {
      terms: termsOf(q),
      // A plain query shadowed by a buffered twin in bitECS's map has the twin's hash.
      hash: hashes.get(q) ?? hashes.get(twinOf(ctx, q) ?? q) ?? '',
      buffered: !Array.isArray(q.dense),
      count: snapshot.listCounts[j],
      pending: snapshot.pendingCounts[j],
      dirty: snapshot.dirty[j],
    };
  });
  const fields = snapshot.values.saved().map((f) => {
    if (f.typed !== null) sections.push(f.typed);
    else if (f.any === null) sections.push(f.values.subarray(0, f.count), f.holes.subarray(0, f.holeCount));
    else for (const v of f.any) if (typeof v === 'object' && v !== null) refuseValue(f, v);
    return {
      component: place.get(f.component) ?? -1,
      key: f.key,
      type: f.typed !== null ? f.typed.constructor.name : f.any === null ? 'numbers' : 'any',
      count: f.count,
      holes: f.holeCount,
      any: f.any === null ? null : f.any.slice(0, f.count).map((v) => encodeValue(v, NO_OBJECTS)),
    };
  });
  const state = snapshot.quadtree?.state.owner;
  let quadtree: unknown = null;
  if (snapshot.quadtree !== null && state instanceof QuadtreeState) {
    // Its parts in the world's bytes, under the one checksum.
    const parts = collisionParts(snapshot.quadtree, state, {
      tracked: [],
      trackedMarks: [],
      pairEntities: [],
      handlers: [snapshot.quadtree.handlers.length],
    });
    quadtree = parts.meta;
    sections.push(...parts.sections);
  }
  const meta: WorldMeta = {
    kind: WORLD,
    idCount: snapshot.idCount,
    alive: snapshot.alive,
    maxId: snapshot.maxId,
    components: components.map(([c, d]) => ({ keys: keysOf(c), generation: d.generationId, bit: d.bitflag })),
    generations: snapshot.masks.length,
    queries,
    fields,
    quadtree,
  };
  return packBytes({ meta, sections }, into, 'worldToBytes');
}

/**
 * Reads bytes written by {@link worldToBytes} into a snapshot of `world`, which
 * {@link restoreWorld} then brings back: the entities, their components and values, the ids
 * handed out next, the queries' order and the collision state. `world` must be set up as the
 * saving world was (a fresh one will do): the same components registered in the same order, the
 * plugin added with the same options, handlers and tile layers. A query the saving world had and
 * this one lacks is registered here, so that it keeps the saved order. Nothing in the world
 * changes until that restore, but for such queries.
 * @throws if the bytes are not a world snapshot, are truncated or corrupt, or the world's
 * components or plugin differ from the saving world's; naming which
 */
export function worldFromBytes(world: object, bytes: Uint8Array | ArrayBuffer): WorldSnapshot {
  const ctx = internalsOf(world, 'worldFromBytes');
  const { meta: parsed, sections } = unpackBytes(bytes, 'worldFromBytes');
  const meta = parsed as WorldMeta;
  if (meta.kind !== WORLD) fail(`worldFromBytes: these bytes hold a snapshot of ${meta.kind}, not of ${WORLD}`);
  const components = checkComponents(ctx, meta);
  const snap = new WorldSnapshot();
  let at = 0;
  const next = (): Uint8Array => sections[at++];
  snap.ids = copied('Uint32Array', next()) as Uint32Array;
  snap.idCount = meta.idCount;
  snap.alive = meta.alive;
  snap.maxId = meta.maxId;
  snap.masks = [];
  for (let g = 0; g < meta.generations; g++) snap.masks.push(copied('Int32Array', next()) as Int32Array);
  const lists = meta.queries.map((saved) => ({
    saved,
    list: copied('Uint32Array', next()) as Uint32Array,
    pending: copied('Uint32Array', next()) as Uint32Array,
  }));
  const fields: FieldCopy[] = meta.fields.map((f) => {
    const field: FieldCopy = {
      component: components[f.component],
      key: f.key,
      typed: null,
      values: new Float64Array(0),
      holes: new Int32Array(0),
      holeCount: f.holes,
      any: null,
      count: f.count,
    };
    if (f.type === 'any') field.any = (f.any ?? []).map((v) => decodeValue(v, null));
    else if (f.type === 'numbers') {
      field.values = copied('Float64Array', next()) as Float64Array;
      field.holes = copied('Int32Array', next()) as Int32Array;
    } else {
      const typed = copied(f.type, next()) as NonNullable<FieldCopy['typed']>;
      field.typed = typed;
    }
    return field;
  });
  snap.values.adopt(fields);
  const s = findState(world);
  if (meta.quadtree !== null) {
    if (s === undefined) fail('worldFromBytes: the saving world had a quadtree and this one has none: add it first');
    const parts = { meta: meta.quadtree, sections: sections.slice(at) };
    snap.quadtree = readCollision(s, parts, 'worldFromBytes');
  }
  // Last, once all is checked: the queries, some registered here.
  const free = [...ctx.queries];
  for (const { saved, list, pending } of lists) {
    // The first query of this world with the same terms not taken yet (a buffered twin comes after);
    // one the game registers later is registered now, so that it keeps the saved order.
    const i = free.findIndex((q) => termsOf(q) === saved.terms && !Array.isArray(q.dense) === saved.buffered);
    const q = i >= 0 ? free.splice(i, 1)[0] : registerSaved(world, ctx, saved.hash, saved.buffered);
    if (q === null) continue;
    snap.queries.push(q);
    snap.lists.push(list);
    snap.listCounts.push(saved.count);
    snap.pending.push(pending);
    snap.pendingCounts.push(saved.pending);
    snap.dirty.push(saved.dirty);
  }
  snap.world = world;
  return snap;
}

/** The other query of the same terms, plain or buffered, if there is one. */
function twinOf(ctx: Internals, q: Query): Query | undefined {
  const terms = termsOf(q);
  for (const other of ctx.queries) if (other !== q && termsOf(other) === terms) return other;
  return undefined;
}

/**
 * Registers in `world` the query whose terms bitECS hashed as `hash` (component ids, `not(...)`,
 * `or(...)`, `and(...)`), with the components of this world of the same ids; null if it cannot.
 */
function registerSaved(world: object, ctx: Internals, hash: string, buffered: boolean): Query | null {
  const ids = new Map([...ctx.componentMap].map(([c, d]) => [String(d.id), c]));
  const byId = (id: string): object | undefined => ids.get(id);
  const terms: object[] = [];
  for (const term of hash.match(/[a-z]+\([^)]*\)|\d+/g) ?? []) {
    const op = /^([a-z]+)\(([^)]*)\)$/.exec(term);
    const parts = (op === null ? [term] : op[2].split(',')).map(byId);
    if (parts.some((c) => c === undefined)) return null;
    const comps = parts as object[];
    if (op === null) terms.push(comps[0]);
    else if (op[1] === 'not') terms.push(Not(...comps));
    else if (op[1] === 'or') terms.push(Or(...comps));
    else if (op[1] === 'and') terms.push(And(...comps));
    else return null;
  }
  if (terms.length === 0) return null;
  return registerQuery(world, terms, { buffered });
}

/** A query's terms as a string: its masks per generation, with and without, and any of. */
function termsOf(q: Query): string {
  return JSON.stringify([q.masks, q.notMasks, q.orMasks]);
}

/** This world's components, checked against the saving world's: the same fields, generations and bits, in order. */
function checkComponents(ctx: Internals, meta: WorldMeta): object[] {
  const here = [...ctx.componentMap];
  for (let i = 0; i < Math.max(here.length, meta.components.length); i++) {
    const saved = meta.components[i] as WorldMeta['components'][number] | undefined;
    const now = here[i] as (typeof here)[number] | undefined;
    const fieldsOf = (keys: string[]) => (keys.length === 0 ? 'no array fields' : `fields ${keys.join(', ')}`);
    if (
      saved === undefined ||
      now === undefined ||
      keysOf(now[0]).join() !== saved.keys.join() ||
      now[1].generationId !== saved.generation ||
      now[1].bitflag !== saved.bit
    )
      fail(
        `worldFromBytes: component ${i + 1} of the saving world ` +
          `${saved === undefined ? 'does not exist' : `has ${fieldsOf(saved.keys)}`}, this world's ` +
          `${now === undefined ? 'is not registered' : `has ${fieldsOf(keysOf(now[0]))}`}: register the same ` +
          'components in the same order first (bitECS registerComponents)',
      );
  }
  return here.map(([c]) => c);
}

function refuseValue(f: FieldCopy, v: unknown): never {
  fail(
    `worldToBytes: component field ${f.key === '' ? '(the component itself)' : f.key} holds ${describe(v)}; ` +
      'bytes hold numbers, strings, booleans, null and undefined',
  );
}

/** A copy out of the bytes, so the snapshot owns its arrays, as the typed array of the name `type`. */
function copied(type: string, b: Uint8Array): ArrayBufferView {
  if (!(type in TYPED)) fail(`worldFromBytes: the snapshot is corrupt (a field of type ${type})`);
  const Typed = TYPED[type as keyof typeof TYPED] as unknown as new (buffer: ArrayBuffer) => ArrayBufferView;
  return new Typed(b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer);
}

/** Plain arrays' values are never objects (worldToBytes refuses them): nothing to name by place. */
const NO_OBJECTS = new Map<object, number>();
