import type { IParticle, ParticleContainer } from 'pixi.js';
import { checkFlag, checkKeys, fail, isBits32, show, type KeysOf } from '../core/internal.js';
import type { LooseQuadtree } from '../core/index.js';
import { fit } from '../core/internal.js';

/**
 * What the cullers read from a tree: {@link LooseQuadtree} or anything shaped like it. Without
 * `has` and `getCollider` a culler cannot learn its objects' layers (see {@link CullOptions.mask}).
 */
export type CullTree = Pick<LooseQuadtree, 'queryRect'> & Partial<Pick<LooseQuadtree, 'has' | 'getCollider'>>;

/** Options for {@link SpriteCuller} and {@link ParticleCuller}. */
export interface CullOptions {
  /**
   * Only items whose layer has a bit of this mask are considered (see `setCollider`).
   *
   * The cull is one rectangle query, and a layer in the mask is walked whole where it is a
   * detached class (particles, most of which move each step): in view or not, each of its items
   * comes back only to be skipped when it has no object here. So the mask should hold the
   * layers of the registered objects and no other. `'auto'` learns them: each object's layer is
   * read from the tree once its item is there (an item that changes layer later needs
   * `set` again, or a mask given); -1 walks every layer.
   * @default 'auto'
   */
  mask?: number | 'auto';
  /**
   * Grows the view on every side (tree units, a finite number >= 0), for sprites drawn larger
   * than their boxes. @default 0
   */
  margin?: number;
}

const CULL_KEYS: KeysOf<CullOptions> = { mask: true, margin: true };
const PARTICLE_CULL_KEYS: KeysOf<CullOptions & { sortById?: boolean }> = { ...CULL_KEYS, sortById: true };

/** Anything with a `culled` flag (a PixiJS v8 `Container`, `Sprite`...): the culler owns `culled`, games `visible`. */
export interface Cullable {
  /** Set by the culler while the object is out of view. */
  culled: boolean;
}

/** Anything with a position to write (a PixiJS v8 `Container`, `Sprite`, `Particle`...): see `placeVisible`. */
export interface Placeable {
  /** Written by `placeVisible`: the entity's x. */
  x: number;
  /** Written by `placeVisible`: the entity's y. */
  y: number;
}

/**
 * The parameter of `SpriteCuller.placeVisible` for objects without `x` and `y`: its name is the
 * type error's message. A parameter type rather than a `this` type, so a union of cullers can call it.
 */
export type NeedsPlaceable = 'placeVisible needs objects with x and y: new SpriteCuller<Sprite>()';

/** Where `placeVisible` reads positions: the ECS `Position` component, or any arrays indexed by id. */
export interface PositionSource {
  /** x of each id. */
  readonly x: ArrayLike<number>;
  /** y of each id. */
  readonly y: ArrayLike<number>;
}

/** A culler's mask option, checked: a 32-bit mask or 'auto'. */
function maskOption(options: CullOptions): number | 'auto' {
  const mask: unknown = options.mask;
  if (mask === undefined || mask === 'auto') return 'auto';
  if (typeof mask !== 'number' || !isBits32(mask))
    fail(`cull mask must be a 32-bit mask or 'auto' (got ${show(mask)})`);
  return mask;
}

/** A culler's margin, checked: a finite number >= 0. */
function checkMargin(margin: unknown): number {
  if (typeof margin !== 'number' || !(margin >= 0 && margin < Infinity))
    fail(`cull margin must be a finite number >= 0 (got ${show(margin)})`);
  return margin;
}

/**
 * A culler's view query: the ids of the items in view into {@link hits}, under its mask or the
 * layers of its objects learned from the tree (see {@link CullOptions.mask}); an id waits in
 * {@link waiting} from its `set` until the tree holds its item.
 */
class View {
  readonly hits: number[] = [];
  learned = 0;
  /** Whether the culler still holds an object for an id. */
  private readonly held: (id: number) => boolean;
  private waiting: Int32Array = new Int32Array(64);
  private count = 0;
  private readonly collider = { layer: 0, mask: 0, priority: 0 };

  constructor(held: (id: number) => boolean) {
    this.held = held;
  }

  /** Queries the view grown by `margin` on every side; returns the count of {@link hits}. */
  query(
    tree: CullTree,
    given: number | 'auto',
    margin: number,
    minX: number,
    minY: number,
    maxX: number,
    maxY: number,
  ): number {
    if (!(minX <= maxX) || !(minY <= maxY)) {
      fail(`cull view must have min <= max (got ${show(minX)}, ${show(minY)}, ${show(maxX)}, ${show(maxY)})`);
    }
    // The field may have been set since the constructor checked it.
    checkMargin(margin);
    const mask = this.maskFor(tree, given);
    return tree.queryRect(minX - margin, minY - margin, maxX + margin, maxY + margin, this.hits, mask);
  }

  add(id: number): void {
    if (this.count === this.waiting.length) this.waiting = fit(this.waiting, this.count + 1);
    this.waiting[this.count++] = id;
  }

  /** The mask to query with: `given`, or the layers learned so far of the ids still held. */
  private maskFor(tree: CullTree, given: number | 'auto'): number {
    if (given !== 'auto') return given;
    if (tree.has === undefined || tree.getCollider === undefined) return -1;
    let kept = 0;
    for (let i = 0; i < this.count; i++) {
      const id = this.waiting[i];
      if (!this.held(id)) continue;
      if (tree.has(id)) this.learned |= tree.getCollider(id, this.collider).layer;
      else this.waiting[kept++] = id;
    }
    this.count = kept;
    return this.learned;
  }

  reset(): void {
    this.learned = 0;
    this.count = 0;
  }
}

function checkEntry(id: number, what: string, value: unknown, inView: unknown): void {
  if (!Number.isInteger(id) || id < 0) fail(`cull id must be a non-negative integer (got ${show(id)})`);
  if (value === null || typeof value !== 'object') fail(`${what} for id ${id} must be an object (got ${show(value)})`);
  // Its message built only when it fails: this runs for every object set.
  if (typeof inView !== 'boolean') checkFlag(`inView for id ${id}`, inView);
}

/** Refuses a position source without `x` and `y` arrays: a missing one would place every object at NaN. */
function checkPositions(who: string, position: unknown): void {
  // Typed, but plain JavaScript may pass anything.
  const given = position as Partial<PositionSource> | null;
  if (given === null || typeof given !== 'object' || typeof given.x !== 'object' || typeof given.y !== 'object') {
    fail(`${who}.placeVisible needs a position store with x and y arrays, such as Position (got ${show(position)})`);
  }
}

/** `ids` if it holds `n` entries, else a new array (its contents dropped): it grows by doubling, not every cull. */
function roomFor(ids: Int32Array, n: number): Int32Array {
  return ids.length >= n ? ids : new Int32Array(Math.max(n, ids.length * 2));
}

/**
 * Ids set in view (`set(id, object, true)`) since the last cull: a cull that does not find one
 * keeps it in view once, as the tree learns of a newborn entity only at the next sync.
 */
class Newborns {
  /** 1 while an id is listed; a cull's query marks the ones it finds 2 (see ParticleCuller). */
  flag: Uint8Array = new Uint8Array(256);
  ids: Int32Array = new Int32Array(64);
  count = 0;

  /** Makes room for ids up to `id`: every id set is covered, so a cull reads the flags in range. */
  cover(id: number): void {
    if (id >= this.flag.length) this.flag = fit(this.flag, id + 1);
  }

  add(id: number): void {
    if (this.flag[id] !== 0) return;
    this.flag[id] = 1;
    if (this.count === this.ids.length) this.ids = fit(this.ids, this.count + 1);
    this.ids[this.count++] = id;
  }

  /** Ends every listing: called at the end of each cull. */
  reset(): void {
    for (let i = 0; i < this.count; i++) this.flag[this.ids[i]] = 0;
    this.count = 0;
  }
}

/**
 * Viewport culling for display objects of tree items: after {@link cull}, registered objects
 * whose items overlap the view have `culled === false`, the others `true`.
 *
 * The culler never writes `visible`, so an object the game hid stays hidden in view.
 * {@link set} culls an object until a cull finds it in view. Do not also run PixiJS's
 * `CullerPlugin` over these objects. Costs O(in view): only objects that entered or left
 * the view have their flag written (a `culled` change rebuilds the render group). Its query
 * walks only the layers of its sprites (see {@link CullOptions.mask}), so particles of other
 * layers cost it nothing.
 *
 * Counters: {@link size} is live; {@link visibleCount}, {@link culledCount}, {@link shown},
 * {@link hidden} and {@link visibleIds} describe the last cull.
 *
 * @example
 * const culler = new SpriteCuller<Sprite>({ mask: Layer.Enemy | Layer.Ship }); // the layers that have sprites
 * forgetRemoved(world, culler, (eid, sprite) => sprite.destroy()); // or culler.delete(eid) when the entity goes
 * culler.set(eid, sprite);                      // when the entity gets its sprite
 * culler.cull(tree, camX, camY, camX + w, camY + h); // every frame, after the tree is synced
 * culler.placeVisible(Position);                // then the sprites in view follow their entities
 */
export class SpriteCuller<T extends Cullable = Cullable> {
  /** See {@link CullOptions.mask}; may be changed between culls. */
  mask: number | 'auto';
  /** See {@link CullOptions.margin}; may be changed between culls. */
  margin: number;
  /**
   * Registered objects the last {@link cull} found in view (their `culled` is false): the
   * entries of {@link visibleIds} to read. Objects set or deleted since change {@link size} only.
   */
  visibleCount = 0;
  /**
   * Registered objects the last {@link cull} left out of view (their `culled` is true):
   * {@link size} at that cull minus {@link visibleCount}. Includes objects whose id has no
   * item in the tree, or whose layer the {@link mask} leaves out.
   */
  culledCount = 0;
  /** Objects that entered the view at the last {@link cull} (`culled` cleared): a change, not a total. */
  shown = 0;
  /** Objects that left the view at the last {@link cull} (`culled` set): a change, not a total. */
  hidden = 0;

  /**
   * Ids of the objects in view after the last {@link cull}, in tree order: read entries
   * `0..visibleCount-1` (the array is longer; entries past the count are stale). The same
   * array from cull to cull until a cull finds more than it holds, so re-read it after a cull
   * rather than keep it. Do not write into it.
   */
  get visibleIds(): Int32Array {
    return this.ids;
  }

  /** Registered objects, now: {@link set} adds one for a new id, {@link delete} removes one. */
  get size(): number {
    return this.registered;
  }

  private readonly objects: (T | undefined)[] = [];
  private registered = 0;
  private readonly view = new View((id) => this.objects[id] !== undefined);
  // stamp[id] === frame: the id's object was in view at the latest cull.
  private stamp = new Uint32Array(256);
  private frame = 1;
  private ids: Int32Array = new Int32Array(256);
  private readonly newborns = new Newborns();

  constructor(options: CullOptions = {}) {
    checkKeys('SpriteCuller option', options, CULL_KEYS);
    this.mask = maskOption(options);
    this.margin = checkMargin(options.margin ?? 0);
  }

  /**
   * Registers the object for an id (replacing any other) and culls it until a cull finds it in
   * view. With `inView`, for an entity born in view after this frame's sync (a spark at a hit):
   * the object is shown at once and joins {@link visibleIds}, so {@link placeVisible} places it,
   * and the next cull keeps it in view though the tree does not hold it yet; the cull after that
   * decides by the tree.
   */
  set(id: number, object: T, inView = false): void {
    checkEntry(id, 'object', object, inView);
    if (id >= this.stamp.length) this.growStamp(id);
    this.newborns.cover(id);
    if (this.objects[id] === undefined) this.registered++;
    this.objects[id] = object;
    this.view.add(id);
    if (!inView) {
      this.stamp[id] = 0;
      object.culled = true;
      return;
    }
    object.culled = false;
    this.newborns.add(id);
    // Listed as in view at the last cull, so the next cull culls it once it is out of view.
    if (this.stamp[id] === this.frame) return;
    this.stamp[id] = this.frame;
    if (this.visibleCount === this.ids.length) this.ids = fit(this.ids, this.visibleCount + 1);
    this.ids[this.visibleCount++] = id;
  }

  /** The object registered for an id, if any. */
  get(id: number): T | undefined {
    return this.objects[id];
  }

  /** Forgets an id's object (leaves its `culled` as it is). Returns whether there was one. */
  delete(id: number): boolean {
    if (this.objects[id] === undefined) return false;
    this.objects[id] = undefined;
    this.registered--;
    if (id < this.stamp.length) this.stamp[id] = 0;
    return true;
  }

  /** Forgets every object (leaves their flags as they are) and zeroes the counters. */
  clear(): void {
    this.objects.length = 0;
    this.registered = 0;
    this.view.reset();
    this.stamp.fill(0);
    this.newborns.reset();
    this.visibleCount = 0;
    this.culledCount = 0;
    this.shown = 0;
    this.hidden = 0;
  }

  /** Clears `culled` on objects in view (grown by {@link margin}), sets it on those that left; returns the count. */
  cull(tree: CullTree, minX: number, minY: number, maxX: number, maxY: number): number {
    const n = this.view.query(tree, this.mask, this.margin, minX, minY, maxX, maxY);
    const hits = this.view.hits;
    const objects = this.objects;
    const prevFrame = this.frame;
    const frame = ++this.frame;
    const stamp = this.stamp;
    let count = 0;
    let shown = 0;
    let hidden = 0;
    // The ids in view are gathered at the front of `hits`: the old list is read below.
    for (let i = 0; i < n; i++) {
      const id = hits[i];
      const object = objects[id];
      if (object === undefined) continue;
      if (stamp[id] !== prevFrame) {
        object.culled = false;
        shown++;
      }
      stamp[id] = frame;
      hits[count++] = id;
    }
    const last = this.ids;
    const newborn = this.newborns.flag;
    let kept = 0;
    for (let i = 0; i < this.visibleCount; i++) {
      const id = last[i];
      // In view again this frame, or forgotten since (remove, or a stale entry).
      if (stamp[id] !== prevFrame) continue;
      const object = objects[id];
      if (object !== undefined && newborn[id] !== 0) {
        // Set in view and not in the tree yet: kept at the front of the old list, read below.
        stamp[id] = frame;
        last[kept++] = id;
        continue;
      }
      if (object !== undefined) {
        object.culled = true;
        hidden++;
      }
      stamp[id] = 0;
    }
    this.newborns.reset();
    const ids = (this.ids = roomFor(last, count + kept));
    // The kept newborns go after the ids found: `ids` may be `last`, so they move first, from the back.
    for (let i = kept - 1; i >= 0; i--) ids[count + i] = last[i];
    for (let i = 0; i < count; i++) ids[i] = hits[i];
    count += kept;
    this.visibleCount = count;
    this.culledCount = this.registered - count;
    this.shown = shown;
    this.hidden = hidden;
    return count;
  }

  /**
   * Writes each object in view the position of its id, `x[id]` and `y[id]` of `position` (the
   * ECS `Position`, or the game's own arrays): one loop over the last cull's {@link visibleIds},
   * so call it after {@link cull} and after the game's last move of the frame. Objects out of
   * view keep their old place, unread and unwritten. Returns how many it placed.
   *
   * The objects need `x` and `y` ({@link Placeable}): give the culler their type,
   * `new SpriteCuller<Sprite>(...)`.
   * @throws if `position` has no `x` or `y` array
   */
  placeVisible(position: T extends Placeable ? PositionSource : NeedsPlaceable): number {
    checkPositions('SpriteCuller', position);
    const { x, y } = position as PositionSource;
    const ids = this.ids;
    const objects = this.objects;
    let placed = 0;
    for (let i = 0; i < this.visibleCount; i++) {
      const id = ids[i];
      // Placeable, as the parameter's type says.
      const object = objects[id] as (T & Placeable) | undefined;
      // Deleted since the cull.
      if (object === undefined) continue;
      object.x = x[id];
      object.y = y[id];
      placed++;
    }
    return placed;
  }

  private growStamp(id: number): void {
    this.stamp = fit(this.stamp, id + 1);
  }
}

/**
 * Viewport culling for a PixiJS v8 `ParticleContainer`: after {@link cull}, its
 * `particleChildren` holds exactly the registered particles in view, in tree order unless
 * `sortById`. The culler owns `particleChildren`: use {@link set} and {@link delete}. Its
 * query walks only its particles' layers (see {@link CullOptions.mask}).
 *
 * Counters: {@link size} is live; {@link visibleCount}, {@link culledCount} and
 * {@link visibleIds} describe the last cull, as on {@link SpriteCuller}.
 *
 * @example
 * const sparks = new ParticleContainer<Particle>({ dynamicProperties: { position: true } });
 * const culler = new ParticleCuller(sparks, { mask: Layer.Spark });
 * forgetRemoved(world, culler);                      // removed entities leave the container
 * culler.set(eid, new Particle(texture));            // when the entity is born
 * culler.cull(tree, camX, camY, camX + w, camY + h); // every frame, after the sync
 * culler.placeVisible(Position);                     // x and y of the particles in view
 */
export class ParticleCuller<T extends IParticle = IParticle> {
  /** The container whose `particleChildren` the culler owns. */
  readonly container: ParticleContainer<T>;
  /** See {@link CullOptions.mask}; may be changed between culls. */
  mask: number | 'auto';
  /** See {@link CullOptions.margin}; may be changed between culls. */
  margin: number;
  /** Draw visible particles in id order (stable layering between frames) at the cost of a sort. @default false */
  sortById: boolean;
  /**
   * Registered particles the last {@link cull} found in view: the length of the container's
   * `particleChildren` and the entries of {@link visibleIds} to read.
   */
  visibleCount = 0;
  /**
   * Registered particles the last {@link cull} left out of the container: {@link size} at that
   * cull minus {@link visibleCount}. Includes particles whose id has no item in the tree, or
   * whose layer the {@link mask} leaves out.
   */
  culledCount = 0;

  /**
   * Ids of the particles in view after the last {@link cull}: read entries `0..visibleCount-1`
   * (the array is longer; entries past the count are stale); entry `i` is the id of
   * `container.particleChildren[i]`. The same array from cull to cull until a cull finds more
   * than it holds, so re-read it after a cull rather than keep it. Do not write into it.
   */
  get visibleIds(): Int32Array {
    return this.ids;
  }

  /** Registered particles, now: {@link set} adds one for a new id, {@link delete} removes one. */
  get size(): number {
    return this.registered;
  }

  private readonly particles: (T | undefined)[] = [];
  private readonly view = new View((id) => this.particles[id] !== undefined);
  private registered = 0;
  private ids: Int32Array = new Int32Array(256);
  private sorted: Int32Array = new Int32Array(256);
  private readonly newborns = new Newborns();

  constructor(container: ParticleContainer<T>, options: CullOptions & { sortById?: boolean } = {}) {
    // Typed, but plain JavaScript may pass anything.
    const given = container as Partial<ParticleContainer<T>> | null;
    if (given === null || typeof given !== 'object' || !Array.isArray(given.particleChildren)) {
      fail(`ParticleCuller needs a PixiJS ParticleContainer (got ${show(container)})`);
    }
    checkKeys('ParticleCuller option', options, PARTICLE_CULL_KEYS);
    this.container = container;
    this.mask = maskOption(options);
    this.margin = checkMargin(options.margin ?? 0);
    this.sortById = checkFlag('ParticleCuller sortById', options.sortById ?? false);
    container.particleChildren.length = 0;
    container.update();
  }

  /**
   * Registers the particle for an id (replacing any other); it shows from the next cull on.
   * With `inView`, for an entity born in view after this frame's sync (a spark at a hit): the
   * particle joins the container and {@link visibleIds} at once, so {@link placeVisible} places
   * it, and the next cull keeps it though the tree does not hold it yet; the cull after that
   * decides by the tree.
   */
  set(id: number, particle: T, inView = false): void {
    checkEntry(id, 'particle', particle, inView);
    const newborns = this.newborns;
    newborns.cover(id);
    if (this.particles[id] === undefined) this.registered++;
    this.particles[id] = particle;
    this.view.add(id);
    if (!inView) {
      newborns.flag[id] = 0;
      return;
    }
    // Once until the next cull: a second set in view would list the id twice.
    if (newborns.flag[id] !== 0) return;
    newborns.add(id);
    const n = this.visibleCount;
    if (n === this.ids.length) this.ids = fit(this.ids, n + 1);
    this.ids[n] = id;
    this.visibleCount = n + 1;
    this.container.particleChildren.push(particle);
    this.container.update();
  }

  /** The particle registered for an id, if any. */
  get(id: number): T | undefined {
    return this.particles[id];
  }

  /** Forgets an id's particle; it leaves the container at the next cull. Returns whether there was one. */
  delete(id: number): boolean {
    if (this.particles[id] === undefined) return false;
    this.particles[id] = undefined;
    this.registered--;
    return true;
  }

  /** Forgets every particle, empties the container and zeroes the counters. */
  clear(): void {
    this.particles.length = 0;
    this.registered = 0;
    this.view.reset();
    this.newborns.reset();
    this.container.particleChildren.length = 0;
    this.container.update();
    this.visibleCount = 0;
    this.culledCount = 0;
  }

  /** Fills the container with the particles of items overlapping the rectangle. Returns how many. */
  cull(tree: CullTree, minX: number, minY: number, maxX: number, maxY: number): number {
    const n = this.view.query(tree, this.mask, this.margin, minX, minY, maxX, maxY);
    const hits = this.view.hits;
    let ids: ArrayLike<number> = hits;
    if (this.sortById) {
      this.sorted = roomFor(this.sorted, n);
      for (let i = 0; i < n; i++) this.sorted[i] = hits[i];
      this.sorted.subarray(0, n).sort();
      ids = this.sorted;
    }
    const out = this.container.particleChildren;
    const particles = this.particles;
    const before = out.length;
    const newborns = this.newborns;
    const visibleIds = (this.ids = roomFor(this.ids, n + newborns.count));
    const newborn = newborns.flag;
    const anyNewborn = newborns.count > 0;
    let changed = false;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const id = ids[i];
      const particle = particles[id];
      if (particle === undefined) continue;
      // Found by the tree: not kept again below.
      if (anyNewborn && newborn[id] === 1) newborn[id] = 2;
      if (count >= before || out[count] !== particle) {
        out[count] = particle;
        changed = true;
      }
      visibleIds[count++] = id;
    }
    // Newborns set in view that the tree does not hold yet stay, after the ones it found.
    for (let i = 0; i < newborns.count; i++) {
      const id = newborns.ids[i];
      const particle = particles[id];
      if (newborn[id] !== 1 || particle === undefined) continue;
      // Listed twice if set out of view and in view again since the cull: kept once.
      newborn[id] = 2;
      if (count >= before || out[count] !== particle) {
        out[count] = particle;
        changed = true;
      }
      visibleIds[count++] = id;
    }
    newborns.reset();
    if (count !== before) {
      out.length = count;
      changed = true;
    }
    // Only a changed list needs the container to re-upload its static properties.
    if (changed) this.container.update();
    this.visibleCount = count;
    this.culledCount = this.registered - count;
    return count;
  }

  /**
   * Writes each particle in the container the position of its id, `x[id]` and `y[id]` of
   * `position` (the ECS `Position`, or the game's own arrays): what a `ParticleContainer` with
   * `dynamicProperties: { position: true }` uploads each frame. One loop over the last cull's
   * particles, so call it after {@link cull} and after the game's last move of the frame.
   * Returns how many it placed.
   * @throws if `position` has no `x` or `y` array
   */
  placeVisible(position: PositionSource): number {
    checkPositions('ParticleCuller', position);
    const { x, y } = position;
    const ids = this.ids;
    const out = this.container.particleChildren;
    // The container's list unless the game changed it since the cull.
    const n = Math.min(this.visibleCount, out.length);
    for (let i = 0; i < n; i++) {
      const id = ids[i];
      const particle = out[i];
      particle.x = x[id];
      particle.y = y[id];
    }
    return n;
  }
}
