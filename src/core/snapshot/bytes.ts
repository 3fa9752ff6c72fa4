import { describe, fail, show } from '../errors.js';
import { LooseQuadtree } from '../LooseQuadtree.js';
import { checkTree } from './saveTree.js';
import { QuadtreeSnapshot } from './Snapshot.js';
import { REF, StatePlan } from './StatePlan.js';

/**
 * Snapshots as bytes: a header (magic, format version, length, checksum), a JSON description,
 * then binary sections, each aligned to 8 bytes. A tree's state is described by its references,
 * lists and options, its sections are the numbers and each buffer's part in use; a reference to
 * an object of the state is written as its place in the plan's walk, so a tree made with the
 * same options walks to the same places and takes the state over.
 */
const MAGIC = 0x53545142; // "BQTS" little-endian
const VERSION = 1;
/** magic, version, total bytes, checksum, description bytes, sections: six uint32, then padding to 8. */
const HEADER = 32;

/** The typed arrays bytes hold, by constructor name. */
export const TYPED = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
} as const;
type TypedName = keyof typeof TYPED;

/** A value of a reference, list or map as JSON: finite numbers, booleans and null as they are, the rest tagged. */
export type Encoded = number | boolean | null | (string | number)[];

/** Settings a snapshot must be read back under: a tree's options, and the ECS plugin's beside them. */
export type BytesOptions = Record<string, number | boolean>;

interface Meta {
  /** What the bytes hold: 'tree', or what the ECS face wrote. */
  kind: string;
  /** A hash of the state's fields (see shapeOf). */
  shape: number;
  options: BytesOptions;
  stepCount: number;
  refs: Encoded[];
  used: number[];
  sizes: number[];
  lists: Encoded[][];
  maps: Encoded[][];
}

/**
 * Writes a snapshot (made by `saveTree`) as bytes: to a file, over the network, or into another
 * process, where {@link snapshotFromBytes} reads them back for a tree made with the same options
 * (and the same tile layers). Given the bytes an earlier call returned (`into`), it writes over
 * their memory when it is big enough, else it allocates (fresh memory costs several times the
 * copy into it): a save every frame then writes into the same memory once warm. The bytes
 * returned are then a view of `into`'s buffer: send or write them, not their `.buffer`.
 * @throws if `snapshot` is not a snapshot saved by `saveTree`, or `into` is not a Uint8Array
 */
export function snapshotToBytes(snapshot: QuadtreeSnapshot, into?: Uint8Array): Uint8Array {
  if (!(snapshot instanceof QuadtreeSnapshot) || snapshot.plan === null || !(snapshot.owner instanceof LooseQuadtree))
    fail(`snapshotToBytes takes a snapshot saved by saveTree (got ${describe(snapshot)})`);
  return packBytes(stateParts(snapshot, 'tree', treeOptions(snapshot.owner)), into, 'snapshotToBytes');
}

/** A description and binary sections, before {@link packBytes} and after {@link unpackBytes}. */
export interface Parts {
  meta: object;
  sections: ArrayBufferView[];
}

/** A saved state as the parts of bytes of `kind`, with the options it must be read under. */
export function stateParts(snapshot: QuadtreeSnapshot, kind: string, options: BytesOptions): Parts {
  const plan = snapshot.plan;
  if (plan === null) return fail('a snapshot that holds nothing yet has no bytes: save into it first');
  const index = objectIndex(plan);
  const refs: Encoded[] = new Array<Encoded>(plan.refs);
  for (let f = 0; f < plan.kinds.length; f++)
    if (plan.kinds[f] === REF) refs[plan.slots[f]] = encodeRef(snapshot.refs[plan.slots[f]], plan, index);
  const meta: Meta = {
    kind,
    shape: shapeOf(plan, index),
    options,
    stepCount: snapshot.stepCount,
    refs,
    used: Array.from(snapshot.used),
    sizes: snapshot.copies.map((c) => c.length),
    lists: snapshot.lists.map((l) => l.map((v) => encodeValue(v, index))),
    maps: snapshot.maps.map((l) => l.map((v) => encodeValue(v, index))),
  };
  return { meta, sections: [snapshot.numbers, ...snapshot.copies.map((c, b) => c.subarray(0, snapshot.used[b]))] };
}

/**
 * Packs a JSON description and binary sections behind a header with a checksum (see the module's
 * comment), into `into`'s memory when it is big enough and aligned, else into new bytes.
 */
export function packBytes({ meta, sections }: Parts, into: Uint8Array | undefined, verb: string): Uint8Array {
  if (into !== undefined && !(into instanceof Uint8Array))
    fail(`${verb} takes bytes to write over, a Uint8Array, or nothing (got ${describe(into)})`);
  const json = new TextEncoder().encode(JSON.stringify({ meta, sections: sections.map((v) => v.byteLength) }));
  let size = HEADER + pad8(json.length);
  for (const v of sections) size += pad8(v.byteLength);
  const out =
    into !== undefined && into.byteOffset % 8 === 0 && into.buffer.byteLength - into.byteOffset >= size
      ? new Uint8Array(into.buffer, into.byteOffset, size)
      : new Uint8Array(size);
  // Reused memory holds old bytes: spare header words and paddings are zeroed, so equal states write equal bytes.
  out.fill(0, 0, HEADER);
  out.set(json, HEADER);
  let at = HEADER + json.length;
  for (const v of sections) {
    out.fill(0, at, pad8(at));
    at = pad8(at);
    out.set(new Uint8Array(v.buffer, v.byteOffset, v.byteLength), at);
    at += v.byteLength;
  }
  out.fill(0, at, size);
  const head = new DataView(out.buffer, out.byteOffset, HEADER);
  head.setUint32(0, MAGIC, true);
  head.setUint32(4, VERSION, true);
  head.setUint32(8, size, true);
  head.setUint32(16, json.length, true);
  head.setUint32(12, checksum(out), true);
  return out;
}

/** Checks and opens bytes {@link packBytes} wrote: the description, and each section aligned to 8 bytes. */
export function unpackBytes(bytes: Uint8Array | ArrayBuffer, verb: string): { meta: unknown; sections: Uint8Array[] } {
  const data = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes;
  if (!(data instanceof Uint8Array)) fail(`${verb} takes a Uint8Array or an ArrayBuffer (got ${describe(bytes)})`);
  // Aligned, so that sections can be read through typed arrays.
  const own = data.byteOffset % 8 === 0 ? data : data.slice();
  const head = new DataView(own.buffer, own.byteOffset, Math.min(own.length, HEADER));
  if (own.length < HEADER || head.getUint32(0, true) !== MAGIC)
    fail(`${verb}: these ${own.length} bytes are not a snapshot written as bytes by this library`);
  const version = head.getUint32(4, true);
  if (version !== VERSION)
    fail(`${verb}: the snapshot is of format version ${version}; this library reads version ${VERSION}`);
  const size = head.getUint32(8, true);
  if (own.length !== size)
    fail(`${verb}: the snapshot is ${size} bytes long but ${own.length} were given (truncated or padded)`);
  if (checksum(own) !== head.getUint32(12, true))
    fail(`${verb}: the snapshot is corrupt (its checksum does not match its bytes)`);
  const jsonLength = head.getUint32(16, true);
  let parsed: { meta: unknown; sections: number[] };
  try {
    parsed = JSON.parse(new TextDecoder().decode(own.subarray(HEADER, HEADER + jsonLength))) as typeof parsed;
  } catch {
    fail(`${verb}: the snapshot is corrupt (its description does not parse)`);
  }
  let at = HEADER + pad8(jsonLength);
  const sections = parsed.sections.map((n) => {
    const v = own.subarray(at, at + n);
    at += pad8(n);
    return v;
  });
  return { meta: parsed.meta, sections };
}

/**
 * Reads bytes written by {@link snapshotToBytes} into a snapshot of `tree`, which `restoreTree`
 * then brings back: `tree` must be made with the same options and tile layers as the tree
 * saved (a fresh one will do, in any process running the same version of the library).
 * Nothing in `tree` changes until that restore.
 * @throws if the bytes are not a snapshot, are truncated or corrupt (checksum), were written by
 * another format version, or by a tree of other options or another shape; naming which
 */
export function snapshotFromBytes(tree: LooseQuadtree, bytes: Uint8Array | ArrayBuffer): QuadtreeSnapshot {
  checkTree(tree, 'snapshotFromBytes');
  return readParts(
    tree,
    unpackBytes(bytes, 'snapshotFromBytes'),
    'tree',
    treeOptions(tree),
    'snapshotFromBytes',
    'make the same tile layers on this tree first',
  );
}

/**
 * Reads unpacked bytes (see {@link unpackBytes}) into a snapshot of `root`, checked against `kind` and `options`;
 * `verb` names the call in errors, `advice` says what to do when the state has another shape.
 */
export function readParts(
  root: object,
  parts: { meta: unknown; sections: Uint8Array[] },
  kind: string,
  options: BytesOptions,
  verb: string,
  advice: string,
): QuadtreeSnapshot {
  const { meta: parsed, sections } = parts;
  const meta = parsed as Meta;
  if (meta.kind !== kind)
    fail(
      `${verb}: these bytes hold a snapshot of ${meta.kind === 'tree' ? 'a tree' : meta.kind}, not of ${kind === 'tree' ? 'a tree' : kind}`,
    );
  for (const key of Object.keys(options)) {
    if (!Object.is(options[key], meta.options[key]))
      fail(
        `${verb}: the snapshot was saved with option ${key} ${show(meta.options[key])}, ` +
          `this one has ${show(options[key])}: make it with the same options`,
      );
  }
  const plan = new StatePlan(root);
  const index = objectIndex(plan);
  if (
    shapeOf(plan, index) !== meta.shape ||
    meta.refs.length !== plan.refs ||
    sections[0].length !== 8 * plan.numbers ||
    sections.length !== meta.sizes.length + 1
  )
    fail(
      `${verb}: the snapshot was saved from state of another shape (other tile layers, handlers, or another ` +
        `version of the library): ${advice}`,
    );
  const snap = new QuadtreeSnapshot();
  snap.numbers = new Float64Array(sections[0].buffer, sections[0].byteOffset, plan.numbers).slice();
  // The state's new buffers, and the snapshot's own copies of them.
  const buffers: Uint8Array[] = [];
  for (let b = 0; b < meta.sizes.length; b++) {
    const copy = new Uint8Array(meta.sizes[b]);
    copy.set(sections[b + 1]);
    snap.copies.push(copy);
    buffers.push(new Uint8Array(meta.sizes[b]));
  }
  const views: object[] = [];
  snap.refs = new Array<unknown>(plan.refs);
  for (let f = 0; f < plan.kinds.length; f++) {
    if (plan.kinds[f] !== REF) continue;
    const v = meta.refs[plan.slots[f]];
    // Functions and objects outside the state: the receiving tree's own value at the same field.
    snap.refs[plan.slots[f]] =
      Array.isArray(v) && v[0] === 'k'
        ? (plan.holders[f] as Record<string | number, unknown>)[plan.keys[f]]
        : decodeRef(v, plan, buffers, views);
  }
  const adopted = plan.overBuffers(buffers, views);
  snap.plan = adopted;
  snap.owner = root;
  snap.used = Int32Array.from(meta.used);
  snap.lists = meta.lists.map((l) => l.map((v) => decodeValue(v, plan)));
  snap.maps = meta.maps.map((l) => l.map((v) => decodeValue(v, plan)));
  snap.stepCount = meta.stepCount;
  return snap;
}

function pad8(n: number): number {
  return (n + 7) & ~7;
}

/** The options a tree's snapshot must be read back under. */
export function treeOptions(tree: LooseQuadtree): BytesOptions {
  const t = tree.tree;
  return {
    x: tree.x,
    y: tree.y,
    width: tree.width,
    height: tree.height,
    maxDepth: tree.maxDepth,
    touching: tree.touching,
    lifespan: t.nodes.lifespan,
    maxLifespan: t.nodes.maxLifespan,
    maxId: t.idLimit,
  };
}

function objectIndex(plan: StatePlan): Map<object, number> {
  return new Map(plan.objects.map((o, i) => [o, i]));
}

/** A hash of the plan's fields (holder, key, kind): two trees of the same shape walk to the same fields. */
function shapeOf(plan: StatePlan, index: Map<object, number>): number {
  let h = 0x811c9dc5;
  const mix = (v: number) => (h = Math.imul(h ^ v, 0x01000193));
  for (let f = 0; f < plan.kinds.length; f++) {
    mix(index.get(plan.holders[f]) ?? -1);
    mix(plan.kinds[f]);
    const key = String(plan.keys[f]);
    for (let i = 0; i < key.length; i++) mix(key.charCodeAt(i));
  }
  return h >>> 0;
}

/** A 32-bit hash of every byte past the checksum's own place: four lanes of words, so the multiplies overlap. */
function checksum(bytes: Uint8Array): number {
  const words = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2);
  const K = 0x85ebca6b;
  let a = 0x9e3779b9,
    b = 0x7f4a7c15,
    c = 0x94d049bb,
    d = 0x2545f491;
  let i = 4;
  for (const end = words.length - 3; i < end; i += 4) {
    a = Math.imul(a ^ words[i], K);
    b = Math.imul(b ^ words[i + 1], K);
    c = Math.imul(c ^ words[i + 2], K);
    d = Math.imul(d ^ words[i + 3], K);
  }
  for (; i < words.length; i++) a = Math.imul(a ^ words[i], K);
  let h = Math.imul(a ^ (b >>> 13), K) ^ Math.imul(c ^ (d >>> 7), 0xc2b2ae35) ^ words.length;
  h = Math.imul(h ^ (h >>> 16), K);
  return (h ^ (h >>> 13)) >>> 0;
}

function encodeRef(v: unknown, plan: StatePlan, index: Map<object, number>): Encoded {
  if (ArrayBuffer.isView(v)) {
    const b = plan.bufferOf(v);
    const name = v.constructor.name;
    if (b >= 0 && name in TYPED) return ['t', b, name, v.byteOffset, (v as unknown as { length: number }).length];
  }
  // Functions and objects outside the state are the receiving tree's own.
  if (typeof v === 'function' || (typeof v === 'object' && v !== null && !index.has(v))) return ['k'];
  return encodeValue(v, index);
}

/** A value as JSON (see Encoded); objects only as places in `index`. */
export function encodeValue(v: unknown, index: Map<object, number>): Encoded {
  if ((typeof v === 'number' && Number.isFinite(v) && !Object.is(v, -0)) || typeof v === 'boolean' || v === null)
    return v;
  if (typeof v === 'number') return ['n', String(v)];
  if (v === undefined) return ['u'];
  if (typeof v === 'string') return ['s', v];
  if (typeof v === 'object' && index.has(v)) return ['o', index.get(v) as number];
  return fail(`a snapshot's state holds a value bytes cannot hold (${describe(v)})`);
}

function decodeRef(v: Encoded, plan: StatePlan, buffers: Uint8Array[], views: object[]): unknown {
  if (Array.isArray(v) && v[0] === 't') {
    const [, b, name, offset, length] = v as [string, number, TypedName, number, number];
    if (!(b < buffers.length && name in TYPED)) fail('the snapshot is corrupt (a view)');
    const Typed = TYPED[name] as unknown as new (buffer: ArrayBufferLike, offset: number, length: number) => object;
    const view = new Typed(buffers[b].buffer, offset, length);
    views.push(view);
    return view;
  }
  return decodeValue(v, plan);
}

/** The value {@link encodeValue} wrote; objects by their place in `plan`'s walk. */
export function decodeValue(v: Encoded, plan: StatePlan | null): unknown {
  if (!Array.isArray(v)) return v;
  switch (v[0]) {
    case 'n':
      return Number(v[1]);
    case 'u':
      return undefined;
    case 's':
      return v[1];
    case 'o':
      if (plan !== null) return plan.objects[v[1] as number];
  }
  return fail('the snapshot is corrupt (a value)');
}
