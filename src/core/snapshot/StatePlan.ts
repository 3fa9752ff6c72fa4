import { describe, fail } from '../errors.js';
import type { QuadtreeSnapshot } from './Snapshot.js';

/**
 * A structure's state, found by walking its objects from a root: new state is saved once reachable, no code to change.
 * Functions, typed arrays (copied per buffer, so views stay shared) and {@link markOutside} objects stay references.
 */

/** Field kinds. */
const NUMBER = 0;
const BOOLEAN = 1;
/** A reference (object, typed array, function, string, null or undefined), restored as it was. */
export const REF = 2;
/** The length of an array whose elements are objects: a change makes the plan stale. */
const LENGTH = 3;

const outside = new WeakSet();

/** Per holder, per typed-array field: how many of its elements are in use (see {@link declareExtent}). */
const extents = new WeakMap<object, Record<string, () => number>>();

/** Declares only the first `inUse()` elements of typed array `holder[key]` state; the rest is written before read. */
export function declareExtent(holder: object, key: string, inUse: () => number): void {
  const own = extents.get(holder);
  if (own === undefined) extents.set(holder, { [key]: inUse });
  else own[key] = inUse;
}

/** Marks an object as not part of the state: snapshots keep a reference to it and never copy it. */
export function markOutside(o: object): void {
  outside.add(o);
}

/** Per holder, the fields that hold scratch (see {@link declareScratch}). */
const scratch = new WeakMap<object, Set<string>>();

/** Declares `holder[key]` scratch for each key (written before read): saves and restores skip it. */
export function declareScratch(holder: object, ...keys: string[]): void {
  const own = scratch.get(holder);
  if (own === undefined) scratch.set(holder, new Set(keys));
  else for (const key of keys) own.add(key);
}

/** One plan: fixed once built, shared by every snapshot saved while the state kept its shape. */
export class StatePlan {
  /** Per field: the object holding it, its key, its kind, and its index in the snapshot's arrays. */
  readonly holders: object[] = [];
  readonly keys: (string | number)[] = [];
  readonly kinds: number[] = [];
  readonly slots: number[] = [];
  /** The length of each array of objects when the plan was built (a change makes it stale). */
  readonly planned: unknown[] = [];
  /** Every object and typed array the plan reaches: references may move among them and the plan still fits. */
  private readonly members: Set<object>;
  /** The objects the walk reached but for typed arrays, in the order it reached them (the root first). */
  readonly objects: object[] = [];
  numbers = 0;
  refs = 0;
  /** Distinct typed-array buffers, as byte views over the whole buffer. */
  readonly buffers: Uint8Array[] = [];
  private readonly bufferIndex = new Map<ArrayBufferLike, number>();
  /** Plain arrays of primitives, whose contents are copied. */
  readonly lists: unknown[][] = [];
  /** Maps of primitive values (a tile layer's slot per id), whose entries are copied. */
  readonly maps: Map<unknown, unknown>[] = [];

  constructor(root: object) {
    const seen = new Set<object>([root]);
    this.members = seen;
    this.objects.push(root);
    const buffers = this.bufferIndex;
    const queue: object[] = [root];
    for (let q = 0; q < queue.length; q++) {
      const o = queue[q];
      if (Array.isArray(o)) this.add(o, 'length', LENGTH, this.numbers++, o.length);
      const skipped = scratch.get(o);
      for (const key of Array.isArray(o) ? o.keys() : Object.keys(o)) {
        if (skipped?.has(key as string) === true) continue;
        const v = (o as Record<string | number, unknown>)[key];
        if (typeof v === 'number') this.add(o, key, NUMBER, this.numbers++, undefined);
        else if (typeof v === 'boolean') this.add(o, key, BOOLEAN, this.numbers++, undefined);
        else {
          this.add(o, key, REF, this.refs++, undefined);
          if (typeof v !== 'object' || v === null || seen.has(v) || outside.has(v)) continue;
          seen.add(v);
          if (!ArrayBuffer.isView(v)) this.objects.push(v);
          if (ArrayBuffer.isView(v)) {
            if (!buffers.has(v.buffer)) {
              buffers.set(v.buffer, this.buffers.length);
              this.buffers.push(new Uint8Array(v.buffer));
            }
          } else if (v instanceof Map || v instanceof Set) {
            // Entries are copied as they are: a map of objects would share them with the live state.
            if (!(v instanceof Map) || ![...v.values()].every(listable))
              fail(`a snapshot's state holds ${describe(v)} it cannot copy: only maps of primitive values`);
            this.maps.push(v);
          } else if (Array.isArray(v) && v.every(listable)) {
            this.lists.push(v);
          } else {
            queue.push(v);
          }
        }
      }
    }
  }

  /** This plan over new buffers (as many, in order) and the typed arrays `views` on them: a snapshot from bytes. */
  overBuffers(buffers: Uint8Array[], views: object[]): StatePlan {
    const plan = Object.create(StatePlan.prototype) as StatePlan;
    return Object.assign(plan, this, {
      buffers,
      bufferIndex: new Map(buffers.map((b, i) => [b.buffer, i])),
      members: new Set([...this.members, ...views]),
    });
  }

  /** The typed-array buffer index of `v`, or -1. */
  bufferOf(v: ArrayBufferView): number {
    return this.bufferIndex.get(v.buffer) ?? -1;
  }

  private add(holder: object, key: string | number, kind: number, slot: number, planned: unknown): void {
    this.holders.push(holder);
    this.keys.push(key);
    this.kinds.push(kind);
    this.slots.push(slot);
    this.planned.push(planned);
  }

  /** Whether the state still has the plan's shape (references, array lengths, kinds). Allocates nothing. */
  fits(): boolean {
    const { holders, keys, kinds, planned, members } = this;
    for (let f = 0; f < kinds.length; f++) {
      const kind = kinds[f];
      const v = (holders[f] as Record<string | number, unknown>)[keys[f]];
      if (kind === REF) {
        if (typeof v === 'object' && v !== null && !members.has(v) && !outside.has(v)) return false;
      } else if (kind === LENGTH) {
        if (v !== planned[f]) return false;
      } else if (typeof v !== (kind === NUMBER ? 'number' : 'boolean')) {
        return false;
      }
    }
    for (const list of this.lists) {
      for (let i = 0; i < list.length; i++) if (!listable(list[i])) return false;
    }
    for (const map of this.maps) for (const v of map.values()) if (!listable(v)) return false;
    return true;
  }

  save(into: QuadtreeSnapshot): void {
    const { numbers, refs, copies, used, lists, maps } = into;
    const { holders, keys, kinds, slots } = this;
    for (let f = 0; f < kinds.length; f++) {
      const v = (holders[f] as Record<string | number, unknown>)[keys[f]];
      const kind = kinds[f];
      if (kind === REF) refs[slots[f]] = v;
      else numbers[slots[f]] = kind === BOOLEAN ? (v ? 1 : 0) : (v as number);
    }
    this.measureUse(used);
    for (let b = 0; b < this.buffers.length; b++) {
      const buffer = this.buffers[b];
      const n = used[b];
      // A view per buffer saved in part; a whole buffer's copy needs none.
      if (n > 0) copies[b].set(n === buffer.length ? buffer : buffer.subarray(0, n));
    }
    for (let l = 0; l < this.lists.length; l++) copyList(this.lists[l], lists[l]);
    for (let m = 0; m < this.maps.length; m++) {
      const out = maps[m];
      out.length = 0;
      for (const [k, v] of this.maps[m]) out.push(k, v);
    }
  }

  /** Writes saved state back: fields first (references bring back the objects and arrays), then contents. */
  restore(from: QuadtreeSnapshot): void {
    const { numbers, refs, copies, used, lists, maps } = from;
    const { holders, keys, kinds, slots } = this;
    for (let f = 0; f < kinds.length; f++) {
      const holder = holders[f] as Record<string | number, unknown>;
      const kind = kinds[f];
      const s = slots[f];
      if (kind === REF) holder[keys[f]] = refs[s];
      else if (kind === BOOLEAN) holder[keys[f]] = numbers[s] === 1;
      // An array's length before its elements (LENGTH fields come first in each array). A whole number goes back as
      // an integer: written as read from the float array, it would turn the field's small integers into doubles.
      else holder[keys[f]] = numbers[s] === (numbers[s] | 0) ? numbers[s] | 0 : numbers[s];
    }
    for (let b = 0; b < this.buffers.length; b++) {
      const n = used[b];
      this.buffers[b].set(n === copies[b].length ? copies[b] : copies[b].subarray(0, n));
    }
    for (let l = 0; l < this.lists.length; l++) copyList(lists[l], this.lists[l]);
    for (let m = 0; m < this.maps.length; m++) {
      const map = this.maps[m];
      const from = maps[m];
      map.clear();
      for (let i = 0; i < from.length; i += 2) map.set(from[i], from[i + 1]);
    }
  }

  /** The bytes of each buffer holding state: up to the furthest declared extent of the fields viewing it now. */
  private measureUse(used: Int32Array): void {
    used.fill(0);
    const { holders, keys, kinds } = this;
    for (let f = 0; f < kinds.length; f++) {
      if (kinds[f] !== REF) continue;
      const holder = holders[f] as Record<string | number, unknown>;
      const v = holder[keys[f]];
      if (!ArrayBuffer.isView(v)) continue;
      const b = this.bufferIndex.get(v.buffer);
      if (b === undefined) continue;
      const size = this.buffers[b].length;
      const inUse = extents.get(holder)?.[keys[f]];
      const elementBytes = (v as unknown as Int8Array).BYTES_PER_ELEMENT;
      const end = inUse === undefined ? size : Math.min(size, v.byteOffset + inUse() * elementBytes);
      if (end > used[b]) used[b] = end;
    }
  }
}

/** Whether an array element is copied as list content; an array holding null is walked: it may later hold objects. */
function listable(v: unknown): boolean {
  return typeof v !== 'object' && typeof v !== 'function';
}

function copyList(from: unknown[], to: unknown[]): void {
  to.length = from.length;
  for (let i = 0; i < from.length; i++) to[i] = from[i];
}
