import { addEntity, createEntityIndex, getAllEntities, removeEntity, type World } from 'bitecs';

type EntityIndex = ReturnType<typeof createEntityIndex>;
import { createSnapshotDeserializer, createSnapshotSerializer } from 'bitecs/serialization';

/** A bitECS world at one frame: its components' values, and which ids are alive and come next. */
export interface WorldSave {
  packet: ArrayBuffer;
  /** The entity index: ids alive first, then the ids bitECS hands out again, next first. */
  dense: number[];
  aliveCount: number;
  maxId: number;
}

/**
 * Saves and restores a bitECS world with the same entity ids, which the collision state names:
 * bitECS's snapshot serializer for the components, and the entity index (made by the game and
 * given to `createWorld`) for the ids. `components` lists every component the game uses.
 */
export function worldSaver(world: World, index: EntityIndex, components: object[]) {
  const serialize = createSnapshotSerializer(world, components, new ArrayBuffer(1 << 24));
  const deserialize = createSnapshotDeserializer(world, components);
  const sameIds = new Map<number, number>();
  return {
    save(): WorldSave {
      return { packet: serialize(), dense: index.dense.slice(), aliveCount: index.aliveCount, maxId: index.maxId };
    },
    restore(saved: WorldSave): void {
      for (const eid of getAllEntities(world)) removeEntity(world, eid);
      // Ids 1..maxId in order, then the dead ones removed so that they come back in the saved order.
      index.dense.length = 0;
      index.sparse.length = 0;
      index.aliveCount = 0;
      index.maxId = 0;
      for (let i = 0; i < saved.maxId; i++) addEntity(world);
      for (let i = saved.dense.length - 1; i >= saved.aliveCount; i--) removeEntity(world, saved.dense[i]);
      sameIds.clear();
      for (let i = 0; i < saved.aliveCount; i++) sameIds.set(saved.dense[i], saved.dense[i]);
      deserialize(saved.packet, sameIds);
    },
  };
}
