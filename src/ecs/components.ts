/**
 * The plugin's components, in bitECS's SoA shape: one array per field, indexed by entity id.
 *
 * Storage is a plain `number[]` per field. It grows with any entity id (no capacity to pick
 * up front), keeps full double precision (a position written is the position read back, so
 * change detection by comparison is exact), and is never replaced, so references taken from
 * it stay valid. V8 keeps a plain array of numbers as unboxed doubles, as fast to read as a
 * typed array. A game that wants typed arrays passes its own components to `addQuadtree`.
 */

/**
 * A plain array tagged as float64 for bitECS's serializers (`bitecs/serialization`, which
 * refuse untagged arrays), so the plugin's components serialize as they are: the tag is the
 * symbol bitECS's own `f64()` sets, from the global registry.
 */
function f64(): number[] {
  return Object.defineProperty([] as number[], Symbol.for('bitecs-f64'), { value: true });
}

/** One field of an SoA component: a plain array or any typed array, indexed by entity id. */
export type NumberStore = { [index: number]: number };

/** Anything with `x` and `y` stores: the centre of an entity's box. */
export interface PositionStore {
  /** Centre x per entity. */
  x: NumberStore;
  /** Centre y per entity. */
  y: NumberStore;
}

/** Anything with `width` and `height` stores: the full size of an entity's box. */
export interface BoundsStore {
  /** Full width per entity. */
  width: NumberStore;
  /** Full height per entity. */
  height: NumberStore;
}

/** Anything with `layer`, `mask` and `priority` stores. */
export interface ColliderStore {
  /** Category bits per entity. */
  layer: NumberStore;
  /** Bits of the categories each entity collides with. */
  mask: NumberStore;
  /** 0..255 per entity, higher is more important. */
  priority: NumberStore;
}

/** Anything with the stores of a collision pair (`toi` may be left out). */
export interface CollisionStore {
  /** The pair's entity with the lower id. */
  a: NumberStore;
  /** The pair's entity with the higher id. */
  b: NumberStore;
  /** The pair's priority. */
  priority: NumberStore;
  /** One of {@link Phase}. */
  phase: NumberStore;
  /** The collision step in which the pair began. */
  startedAt: NumberStore;
  /** When in its first frame the pair first touched (0..1). */
  toi?: NumberStore;
}

/**
 * Centre of the entity's box, in world units. This and the other default components are
 * module-level arrays indexed by entity id, shared by every world that uses them: give each
 * world of a process its own set with {@link createQuadtreeComponents} when there are several.
 */
export const Position = {
  /** Centre x, by entity id. */
  x: f64(),
  /** Centre y, by entity id. */
  y: f64(),
};

/** Full width and height of the entity's box (not half sizes). Zero is allowed, negative is not. */
export const Bounds = {
  /** Full width, by entity id. */
  width: f64(),
  /** Full height, by entity id. */
  height: f64(),
};

/**
 * Collision filter and importance. An entity without Collider gets the defaults: layer 1,
 * mask all bits, priority 128. A field left unwritten (`undefined`) also takes its default.
 * When this Collider leaves an entity that has Position and Bounds (removeComponent or
 * removeEntity), its fields are set back to the defaults, so a recycled id starts from them
 * (so are those of {@link createQuadtreeComponents}); a game's own collider store (the
 * `collider` option) is left as it is. The Collider of an entity without both is not watched:
 * write all three fields when adding it to such an entity.
 * - `layer`: the entity's category bits (usually one bit of 32; not 0)
 * - `mask`: the categories it collides with; a pair exists only if each side's mask has a
 *   bit of the other's layer
 * - `priority`: 0..255, higher is more important; a pair has the lower of its two
 *
 * The sync reads an entity's Collider when the entity enters the tree and when the component
 * is added or removed. After writing the fields of an entity already in the tree, call
 * {@link markColliderChanged}: bitECS fires nothing for a direct write such as
 * `Collider.mask[eid] = 0`, and comparing every Collider each frame would cost a pass over
 * all of them, so without the mark the old filter and priority stay in force.
 */
export const Collider = {
  /** Category bits, by entity id. */
  layer: f64(),
  /** Categories collided with, by entity id. */
  mask: f64(),
  /** 0..255, by entity id. */
  priority: f64(),
};

/** Tag for entities that do not move (walls): never scanned for changes, never paired with each other. */
export const Static = {};

/**
 * Tag for fast entities (bullets) that must not pass through others between two frames: the
 * entity is found by its whole path since the last collision step, and a pair exists when it
 * met the other entity anywhere along it (see the core's `setSwept`). `Collision.toi` and
 * `forEachPair` tell when in the frame they first touched.
 */
export const Swept = {};

/**
 * Tag for round entities (ships, enemies, rocks): the entity is the circle inscribed in its
 * box, diameter `Bounds.width`, so its Bounds must be square (width equal to height); an
 * entity whose Bounds are not is held out of the tree with an error, as for any bad value.
 * Pairs and queries test the circle (see the core's `setShape`); {@link contact} gives its
 * exact normal.
 */
export const Circle = {};

/**
 * One overlapping pair, carried by a pair entity the plugin creates when the pair begins and
 * removes the frame after it ends. `a` and `b` are the two entities (`a` has the lower id),
 * `priority` the pair's priority, `phase` one of {@link Phase}, `startedAt` the frame
 * (collision step) in which the pair began, and `toi` when in that frame they first touched
 * (0 at its start, 1 at its end; 0 unless one of them is {@link Swept}): a bullet's hit spark
 * goes where the bullet was at that time.
 */
export const Collision = {
  /** The entity with the lower id, by pair entity. */
  a: f64(),
  /** The entity with the higher id, by pair entity. */
  b: f64(),
  /** The pair's priority, by pair entity. */
  priority: f64(),
  /** One of {@link Phase}, by pair entity. */
  phase: f64(),
  /** The collision step the pair began in, by pair entity. */
  startedAt: f64(),
  /** When in its first frame the pair first touched (0..1), by pair entity. */
  toi: f64(),
};

/**
 * A world's own set of the plugin's data components, made by {@link createQuadtreeComponents}.
 * Its keys are those of {@link addQuadtree}'s options, so the set spreads into them.
 */
export interface QuadtreeComponents {
  /** A {@link Position} of this world's own. */
  position: typeof Position;
  /** A {@link Bounds} of this world's own. */
  bounds: typeof Bounds;
  /** A {@link Collider} of this world's own: reset to the defaults when it leaves an entity, as the default one is. */
  collider: typeof Collider;
  /** A {@link Collision} of this world's own, for its pair entities. */
  collision: typeof Collision;
}

/** Colliders made by {@link createQuadtreeComponents}: the plugin resets them as it does its own. */
const madeColliders = new WeakSet();

/**
 * A fresh set of the plugin's data components (Position, Bounds, Collider, Collision), for a
 * world that must not share its stores with another one in the same process. The default
 * components are module-level arrays indexed by entity id, and bitECS numbers each world's
 * entities from 1: with two worlds on them (a server and a client, a rollback copy), entity 5
 * of one reads and writes where entity 5 of the other does. Pass the set to
 * {@link addQuadtree} and use its components in that world's systems:
 *
 * ```ts
 * const c = createQuadtreeComponents();
 * const world = addQuadtree(createWorld(), { ...c, width: 1024, height: 1024 });
 * const eid = addEntity(world, c.position, c.bounds, c.collider);
 * c.position.x[eid] = 100;
 * ```
 *
 * The tags ({@link Static}, {@link Swept}, {@link Circle}) hold no data (bitECS keeps which
 * entities have them per world), so the exported ones serve every world.
 */
export function createQuadtreeComponents(): QuadtreeComponents {
  const collider = { layer: f64(), mask: f64(), priority: f64() };
  madeColliders.add(collider);
  return {
    position: { x: f64(), y: f64() },
    bounds: { width: f64(), height: f64() },
    collider,
    collision: { a: f64(), b: f64(), priority: f64(), phase: f64(), startedAt: f64(), toi: f64() },
  };
}

/** True for the plugin's own colliders: the default one and those of {@link createQuadtreeComponents}. */
export function isPluginCollider(store: ColliderStore): boolean {
  return store === Collider || madeColliders.has(store);
}

/**
 * Phases of a collision pair. The values are bits, so a handler can ask for several at once
 * (`Phase.Enter | Phase.Exit`).
 */
export const Phase = {
  /** The pair began this frame. */
  Enter: 1,
  /** The pair began in an earlier frame and still overlaps. */
  Stay: 2,
  /** The pair ended this frame (its entities separated, changed filter, or one was removed). */
  Exit: 4,
  /** Every phase. */
  All: 7,
} as const;

/** A single phase: {@link Phase.Enter}, {@link Phase.Stay} or {@link Phase.Exit}. */
export type PhaseValue = 1 | 2 | 4;

/** Defaults for entities without {@link Collider}, and for fields left unwritten. */
export const DEFAULT_COLLIDER = {
  /** Layer 1. */
  layer: 1,
  /** Every layer. */
  mask: -1,
  /** 128: tier 1. */
  priority: 128,
} as const;
