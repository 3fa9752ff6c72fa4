import { fit } from '../core/internal.js';
import { IdList } from '../core/internal.js';

/** Not known to the plugin (no Position + Bounds, or removed). */
export const UNTRACKED = 0;
/** Gained Position + Bounds; read and inserted by the next sync. */
export const QUEUED = 1;
/** In the tree. */
export const IN_TREE = 2;
/** Held out of the tree because of bad values; re-checked every sync. */
export const HELD = 3;

/**
 * `marks` bits: queued for a re-read by markMoved; listed in `held`; has a Collider (kept by
 * the plugin's observers while the entity has Position and Bounds, see plugin.ts); a tile
 * layer's rectangle, until it loses Position or Bounds (see tilemap.ts).
 */
export const MARK_MOVED = 1;
export const IN_HELD_LIST = 2;
export const HAS_COLLIDER = 4;
export const TILE_RECT = 8;

/**
 * What the plugin knows about each entity, in parallel typed arrays indexed by entity id
 * (which is also the entity's id in the tree), grown by doubling.
 */
export class EntityTable {
  /** UNTRACKED, QUEUED, IN_TREE or HELD. */
  status = new Uint8Array(1024);
  /** Collider layer, for handler matching. */
  layer = new Int32Array(1024);
  isStatic = new Uint8Array(1024);
  /** 1 while the entity is swept in the tree (see Swept). */
  swept = new Uint8Array(1024);
  /** 1 while the entity is a circle in the tree (see Circle). */
  circle = new Uint8Array(1024);
  marks = new Uint8Array(1024);
  /** Entities held out of the tree (may hold stale entries; see `heldCount`). */
  readonly held = new IdList();
  heldCount = 0;
  inTree = 0;
  staticCount = 0;

  get capacity(): number {
    return this.status.length;
  }

  /** Makes room for index `id`. */
  ensure(id: number): void {
    if (id < this.status.length) return;
    const size = id + 1;
    this.status = fit(this.status, size);
    this.layer = fit(this.layer, size);
    this.isStatic = fit(this.isStatic, size);
    this.swept = fit(this.swept, size);
    this.circle = fit(this.circle, size);
    this.marks = fit(this.marks, size);
  }
}
