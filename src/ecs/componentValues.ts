/**
 * The values of a world's components at a save: every array field of every registered
 * component, whole. A typed array is copied by its `set` (a memory copy); a plain array by id:
 * numbers with its holes marked, or, once it holds anything else, as they are.
 */

/** A number store of a component as a save copies it: a typed array, or a plain array of anything. */
type Store = { [index: number]: unknown; length: number };

/** A typed array of any kind, as a field of a component. */
type Typed = Float64Array | Float32Array | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array;

/** @internal One component field's values at the save: `typed`, else `values` and `holes`, else `any`. */
export interface FieldCopy {
  readonly component: object;
  /** The field's key, or '' for a component that is itself the array. */
  readonly key: string;
  typed: Typed | null;
  values: Float64Array;
  /** Places of the holes below `count`, a plain array of numbers had at the save. */
  holes: Int32Array;
  holeCount: number;
  any: unknown[] | null;
  /** Values saved: a plain array's length at the save. */
  count: number;
}

/** Every component field's values at a save (see the module's comment). */
export class ComponentValues {
  private readonly fields: FieldCopy[] = [];
  private count = 0;

  /** Bytes of typed arrays held. */
  get byteLength(): number {
    let n = 0;
    for (let i = 0; i < this.count; i++) {
      const f = this.fields[i];
      n += f.typed !== null ? f.typed.byteLength : f.values.byteLength + f.holes.byteLength;
    }
    return n;
  }

  /** Saves the array fields of `components`. */
  save(components: Iterable<object>): void {
    let j = 0;
    for (const component of components) {
      for (const key of keysOf(component)) {
        const store = fieldOf(component, key);
        // A field replaced by something else since it was first seen: nothing to save.
        if (!isStore(store)) continue;
        let f = this.fields[j] as FieldCopy | undefined;
        if (f === undefined || f.component !== component || f.key !== key) {
          f = {
            component,
            key,
            typed: null,
            values: NO_VALUES,
            holes: NO_HOLES,
            holeCount: 0,
            any: null,
            count: 0,
          };
          this.fields[j] = f;
        }
        if (Array.isArray(store)) savePlain(f, store as unknown[]);
        else saveTyped(f, store as Typed);
        j++;
      }
    }
    this.count = j;
  }

  /** @internal The fields saved, in order (for bytes: see ecs/bytes.ts). */
  saved(): readonly FieldCopy[] {
    return this.fields.slice(0, this.count);
  }

  /** @internal Takes fields read from bytes in place of those saved. */
  adopt(fields: FieldCopy[]): void {
    this.fields.length = 0;
    this.fields.push(...fields);
    this.count = fields.length;
  }

  /** Writes the saved values back. */
  restore(): void {
    for (let j = 0; j < this.count; j++) {
      const f = this.fields[j];
      const store = fieldOf(f.component, f.key);
      if (f.typed !== null) {
        // A field grown or replaced since the save takes what fits.
        if (isStore(store) && !Array.isArray(store)) {
          const to = store as Typed;
          if (to.length >= f.count) to.set(f.typed);
          else for (let i = 0; i < to.length; i++) to[i] = f.typed[i];
        }
        continue;
      }
      if (!Array.isArray(store)) continue;
      const plain = store as unknown[];
      if (f.any !== null) {
        for (let i = 0; i < f.count; i++) plain[i] = f.any[i];
      } else {
        // A hole at the save is made a hole again: writing undefined would turn a plain array of
        // numbers into one of anything, slower for good.
        const { values, holes } = f;
        for (let i = 0; i < f.count; i++) plain[i] = values[i];
        for (let h = 0; h < f.holeCount; h++) Reflect.deleteProperty(plain, holes[h]);
      }
      // Written past its end since the save (entities born since, or a game's own ids): holes again.
      if (plain.length > f.count) plain.length = f.count;
    }
  }
}

/** Array fields of each component, found once (a component's fields are fixed when it is first saved). */
const fieldKeys = new WeakMap<object, string[]>();

/** @internal The array fields of a component (cached). */
export function keysOf(component: object): string[] {
  let keys = fieldKeys.get(component);
  if (keys === undefined) {
    keys = isStore(component) ? [''] : Object.keys(component).filter((k) => isStore(fieldOf(component, k)));
    fieldKeys.set(component, keys);
  }
  return keys;
}

function isStore(v: unknown): v is Store {
  return Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));
}

function fieldOf(component: object, key: string): unknown {
  return key === '' ? component : (component as Record<string, unknown>)[key];
}

const NO_VALUES = new Float64Array(0);
const NO_HOLES = new Int32Array(0);

function saveTyped(f: FieldCopy, store: Typed): void {
  if (f.typed?.constructor !== store.constructor || f.typed.length !== store.length)
    f.typed = new (store.constructor as Float64ArrayConstructor)(store.length);
  f.typed.set(store);
  f.count = store.length;
}

/** bitecs/serialization's tags of plain arrays of numbers (the plugin's own arrays carry f64). */
const NUMBER_TAGS = ['u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'f32', 'f64'].map((t) => Symbol.for(`bitecs-${t}`));

function taggedNumbers(store: unknown[]): boolean {
  for (const tag of NUMBER_TAGS) if (tag in store) return true;
  return false;
}

/**
 * A plain array's numbers into `values` and its holes into `holes`; anything else into `any`.
 * An array tagged as numbers is copied by the typed array's `set` (a value-by-value loop over a
 * plain array with holes runs several times slower), its holes found among the NaNs.
 */
function savePlain(f: FieldCopy, store: unknown[]): void {
  const count = store.length;
  f.typed = null;
  f.count = count;
  f.holeCount = 0;
  if (f.any === null) {
    if (f.values.length < count) f.values = new Float64Array(count + (count >> 1));
    const values = f.values;
    let i = 0;
    if (taggedNumbers(store)) {
      values.set(store as number[]);
      findHoles(f, store, count);
      return;
    }
    for (; i < count; i++) {
      const v = store[i];
      if (typeof v === 'number') values[i] = v;
      else if (v === undefined) addHole(f, i);
      else break;
    }
    if (i === count) return;
    f.any = [];
    f.holeCount = 0;
  }
  const any = f.any;
  for (let i = 0; i < count; i++) any[i] = store[i];
}

/**
 * Adds the holes below `count` of a tagged array copied into `f.values` (as NaN): a block whose
 * sum is a number holds no NaN, so only blocks with one are searched.
 */
function findHoles(f: FieldCopy, store: unknown[], count: number): void {
  const values = f.values;
  for (let i = 0; i < count; i += 64) {
    const end = i + 64 < count ? i + 64 : count;
    let sum = 0;
    for (let j = i; j < end; j++) sum += values[j];
    if (sum === sum) continue;
    for (let j = i; j < end; j++) if (values[j] !== values[j] && store[j] === undefined) addHole(f, j);
  }
}

function addHole(f: FieldCopy, i: number): void {
  if (f.holeCount === f.holes.length) {
    const grown = new Int32Array(2 * f.holeCount + 16);
    grown.set(f.holes);
    f.holes = grown;
  }
  f.holes[f.holeCount++] = i;
}
