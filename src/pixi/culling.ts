import type { IParticle, ParticleContainer } from 'pixi.js';
import { checkKeys, fail, show, type KeysOf } from '../core/internal.js';
import type { LooseQuadtree } from '../core/index.js';
import { fit } from '../core/internal.js';

/** What the cullers read from a tree: {@link LooseQuadtree} or anything shaped like it. */
export type CullTree = Pick<LooseQuadtree, 'queryRect'>;

/** Options for {@link SpriteCuller} and {@link ParticleCuller}. */
export interface CullOptions {
  /** Only items whose layer has a bit of this mask are considered (see `setCollider`). @default all layers */
  mask?: number;
  /** Grows the view on every side (tree units), for sprites drawn larger than their boxes. @default 0 */
  margin?: number;
}

const CULL_KEYS: KeysOf<CullOptions> = { mask: true, margin: true };
const PARTICLE_CULL_KEYS: KeysOf<CullOptions & { sortById?: boolean }> = { ...CULL_KEYS, sortById: true };

/** Anything with a `culled` flag (a PixiJS v8 `Container`, `Sprite`...): the culler owns `culled`, games `visible`. */
export interface Cullable {
  /** Set by the culler while the object is out of view. */
  culled: boolean;
}

/** Ids of the items overlapping the view grown by `margin`, into `hits`; returns the count. */
function queryView(
  tree: CullTree,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  margin: number,
  mask: number,
  hits: number[],
): number {
  if (!(minX <= maxX) || !(minY <= maxY)) {
    fail(`cull view must have min <= max (got ${show(minX)}, ${show(minY)}, ${show(maxX)}, ${show(maxY)})`);
  }
  return tree.queryRect(minX - margin, minY - margin, maxX + margin, maxY + margin, hits, mask);
}

function checkEntry(id: number, what: string, value: unknown): void {
  if (!Number.isInteger(id) || id < 0) fail(`cull id must be a non-negative integer (got ${show(id)})`);
  if (value === null || typeof value !== 'object') fail(`${what} for id ${id} must be an object (got ${show(value)})`);
}

/**
 * Viewport culling for display objects of tree items: after {@link cull}, registered objects
 * whose items overlap the view have `culled === false`, the others `true`.
 *
 * The culler never writes `visible`, so an object the game hid stays hidden in view.
 * {@link set} culls an object until a cull finds it in view. Do not also run PixiJS's
 * `CullerPlugin` over these objects. Costs O(in view): only objects that entered or left
 * the view have their flag written (a `culled` change rebuilds the render group).
 *
 * @example
 * const culler = new SpriteCuller();
 * culler.set(eid, sprite);                      // when the entity gets its sprite
 * culler.cull(tree, camX, camY, camX + w, camY + h); // every frame, after the tree is synced
 * culler.delete(eid);                           // when the entity goes
 */
export class SpriteCuller<T extends Cullable = Cullable> {
  /** See {@link CullOptions.mask}; may be changed between culls. */
  mask: number;
  /** See {@link CullOptions.margin}; may be changed between culls. */
  margin: number;
  /** Registered objects found in view by the last {@link cull}. */
  visibleCount = 0;
  /** Objects that entered the view at the last {@link cull} (`culled` cleared). */
  shown = 0;
  /** Objects that left the view at the last {@link cull} (`culled` set). */
  hidden = 0;

  /** Ids of the objects in view after the last {@link cull}: entries `0..visibleCount-1`, tree order. */
  get visibleIds(): readonly number[] {
    return this.lastIds;
  }

  private readonly objects: (T | undefined)[] = [];
  // stamp[id] === frame: the id's object was in view at the latest cull.
  private stamp = new Uint32Array(256);
  private frame = 1;
  private shownIds: number[] = [];
  private lastIds: number[] = [];
  private readonly hits: number[] = [];

  constructor(options: CullOptions = {}) {
    checkKeys('SpriteCuller option', options, CULL_KEYS);
    this.mask = options.mask ?? -1;
    this.margin = options.margin ?? 0;
  }

  /** Registers the object for an id (replacing any other) and culls it until a cull finds it in view. */
  set(id: number, object: T): void {
    checkEntry(id, 'object', object);
    if (id >= this.stamp.length) this.growStamp(id);
    this.objects[id] = object;
    this.stamp[id] = 0;
    object.culled = true;
  }

  /** The object registered for an id, if any. */
  get(id: number): T | undefined {
    return this.objects[id];
  }

  /** Forgets an id's object (leaves its `culled` as it is). Returns whether there was one. */
  delete(id: number): boolean {
    if (this.objects[id] === undefined) return false;
    this.objects[id] = undefined;
    if (id < this.stamp.length) this.stamp[id] = 0;
    return true;
  }

  /** Forgets every object (leaves their flags as they are). */
  clear(): void {
    this.objects.length = 0;
    this.stamp.fill(0);
    this.visibleCount = 0;
  }

  /** Clears `culled` on objects in view (grown by {@link margin}), sets it on those that left; returns the count. */
  cull(tree: CullTree, minX: number, minY: number, maxX: number, maxY: number): number {
    const hits = this.hits;
    const n = queryView(tree, minX, minY, maxX, maxY, this.margin, this.mask, hits);
    const objects = this.objects;
    const prevFrame = this.frame;
    const frame = ++this.frame;
    const stamp = this.stamp;
    const now = this.shownIds;
    let count = 0;
    let shown = 0;
    let hidden = 0;
    for (let i = 0; i < n; i++) {
      const id = hits[i];
      const object = objects[id];
      if (object === undefined) continue;
      if (stamp[id] !== prevFrame) {
        object.culled = false;
        shown++;
      }
      stamp[id] = frame;
      now[count++] = id;
    }
    const last = this.lastIds;
    for (let i = 0; i < this.visibleCount; i++) {
      const id = last[i];
      // In view again this frame, or forgotten since (remove, or a stale entry).
      if (stamp[id] !== prevFrame) continue;
      const object = objects[id];
      if (object !== undefined) {
        object.culled = true;
        hidden++;
      }
      stamp[id] = 0;
    }
    this.lastIds = now;
    this.shownIds = last;
    this.visibleCount = count;
    this.shown = shown;
    this.hidden = hidden;
    return count;
  }

  private growStamp(id: number): void {
    this.stamp = fit(this.stamp, id + 1);
  }
}

/**
 * Viewport culling for a PixiJS v8 `ParticleContainer`: after {@link cull}, its
 * `particleChildren` holds exactly the registered particles in view, in tree order unless
 * `sortById`. The culler owns `particleChildren`: use {@link set} and {@link delete}.
 */
export class ParticleCuller<T extends IParticle = IParticle> {
  /** The container whose `particleChildren` the culler owns. */
  readonly container: ParticleContainer<T>;
  /** See {@link CullOptions.mask}; may be changed between culls. */
  mask: number;
  /** See {@link CullOptions.margin}; may be changed between culls. */
  margin: number;
  /** Draw visible particles in id order (stable layering between frames) at the cost of a sort. @default false */
  sortById: boolean;
  /** Particles in view after the last {@link cull}. */
  visibleCount = 0;
  /** Ids of the particles in view: entry `i` (below {@link visibleCount}) is `container.particleChildren[i]`'s. */
  visibleIds = new Int32Array(256);

  private readonly particles: (T | undefined)[] = [];
  private readonly hits: number[] = [];
  private sorted = new Int32Array(256);

  constructor(container: ParticleContainer<T>, options: CullOptions & { sortById?: boolean } = {}) {
    // Typed, but plain JavaScript may pass anything.
    const given = container as Partial<ParticleContainer<T>> | null;
    if (given === null || typeof given !== 'object' || !Array.isArray(given.particleChildren)) {
      fail(`ParticleCuller needs a PixiJS ParticleContainer (got ${show(container)})`);
    }
    checkKeys('ParticleCuller option', options, PARTICLE_CULL_KEYS);
    this.container = container;
    this.mask = options.mask ?? -1;
    this.margin = options.margin ?? 0;
    this.sortById = options.sortById ?? false;
    container.particleChildren.length = 0;
    container.update();
  }

  /** Registers the particle for an id (replacing any other); it shows from the next cull on. */
  set(id: number, particle: T): void {
    checkEntry(id, 'particle', particle);
    this.particles[id] = particle;
  }

  /** The particle registered for an id, if any. */
  get(id: number): T | undefined {
    return this.particles[id];
  }

  /** Forgets an id's particle; it leaves the container at the next cull. Returns whether there was one. */
  delete(id: number): boolean {
    if (this.particles[id] === undefined) return false;
    this.particles[id] = undefined;
    return true;
  }

  /** Forgets every particle and empties the container. */
  clear(): void {
    this.particles.length = 0;
    this.container.particleChildren.length = 0;
    this.container.update();
    this.visibleCount = 0;
  }

  /** Fills the container with the particles of items overlapping the rectangle. Returns how many. */
  cull(tree: CullTree, minX: number, minY: number, maxX: number, maxY: number): number {
    const hits = this.hits;
    const n = queryView(tree, minX, minY, maxX, maxY, this.margin, this.mask, hits);
    let ids: ArrayLike<number> = hits;
    if (this.sortById) {
      if (this.sorted.length < n) this.sorted = new Int32Array(Math.max(n, this.sorted.length * 2));
      for (let i = 0; i < n; i++) this.sorted[i] = hits[i];
      this.sorted.subarray(0, n).sort();
      ids = this.sorted;
    }
    const out = this.container.particleChildren;
    const particles = this.particles;
    const before = out.length;
    if (this.visibleIds.length < n) this.visibleIds = new Int32Array(Math.max(n, this.visibleIds.length * 2));
    const visibleIds = this.visibleIds;
    let changed = false;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const id = ids[i];
      const particle = particles[id];
      if (particle === undefined) continue;
      if (count >= before || out[count] !== particle) {
        out[count] = particle;
        changed = true;
      }
      visibleIds[count++] = id;
    }
    if (count !== before) {
      out.length = count;
      changed = true;
    }
    // Only a changed list needs the container to re-upload its static properties.
    if (changed) this.container.update();
    this.visibleCount = count;
    return count;
  }
}
