import { describe, fail, readBytes, treeOptions, writeBytes, type BytesOptions } from '../core/internal.js';
import { QuadtreeWorldSnapshot } from './snapshot.js';
import { QuadtreeState, stateOf } from './state.js';

/**
 * Writes a world's collision snapshot (made by {@link saveQuadtree}) as bytes, for a file or
 * another process, where {@link quadtreeFromBytes} reads them back for a world with the plugin
 * added with the same options, the same handlers registered and the same tile layers. The
 * world's entities and components are the game's to write beside them. Allocates the bytes.
 * @throws if `snapshot` is not a snapshot saved by `saveQuadtree`
 */
export function quadtreeToBytes(snapshot: QuadtreeWorldSnapshot): Uint8Array {
  const owner: unknown = snapshot instanceof QuadtreeWorldSnapshot ? snapshot.state.owner : null;
  if (!(owner instanceof QuadtreeState))
    fail(`quadtreeToBytes takes a snapshot saved by saveQuadtree (got ${describe(snapshot)})`);
  return writeBytes(snapshot.state, optionsOf(owner), {
    tracked: Array.from(snapshot.tracked.subarray(0, snapshot.trackedCount)),
    trackedMarks: Array.from(snapshot.trackedMarks.subarray(0, snapshot.trackedCount)),
    pairEntities: Array.from(snapshot.pairEntities.subarray(0, 3 * snapshot.pairEntityCount)),
  });
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
  const { snapshot, extra } = readBytes(
    s,
    bytes,
    optionsOf(s),
    'quadtreeFromBytes',
    'register the same handlers and make the same tile layers on this world first',
  );
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
