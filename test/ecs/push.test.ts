import { addComponent, addEntity, createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addQuadtree,
  createQuadtreeComponents,
  getQuadtree,
  pushOut,
  quadtreeCollisionSystem,
  quadtreeSyncSystem,
  Static,
  Swept,
  validateTree,
} from '../../src/index.js';
import { Rng } from './helpers.js';

// pushOut moves an entity out of its pair by their contact and takes or bounces the velocity
// that runs into it: checked against the contact's own numbers, in both detect modes and for a
// Static entity, and over a swarm pushed out of walls frame after frame.

function world(detect: 'scan' | 'mark' = 'scan') {
  const c = createQuadtreeComponents();
  const w = addQuadtree(createWorld(), { ...c, width: 200, height: 200, detect });
  const velocity = { x: [] as number[], y: [] as number[] };
  const body = (x: number, y: number, width: number, height: number, isStatic = false): number => {
    const eid = addEntity(w);
    addComponent(w, eid, c.position);
    addComponent(w, eid, c.bounds);
    if (isStatic) addComponent(w, eid, Static);
    c.position.x[eid] = x;
    c.position.y[eid] = y;
    c.bounds.width[eid] = width;
    c.bounds.height[eid] = height;
    velocity.x[eid] = velocity.y[eid] = 0;
    return eid;
  };
  const step = () => quadtreeCollisionSystem(quadtreeSyncSystem(w));
  return { w, c, velocity, body, step };
}

describe('pushOut', () => {
  it('moves an entity out of a wall by the depth, and takes or bounces the velocity that runs into it', () => {
    const { w, c, velocity, body, step } = world();
    const wall = body(100, 100, 40, 40, true);
    const spark = body(78, 100, 8, 8); // 2 px into the wall's left side
    velocity.x[spark] = 3;
    velocity.y[spark] = 1;
    step();
    expect(pushOut(w, spark, wall, velocity, 0.5)).toBe(2);
    expect(c.position.x[spark]).toBe(76);
    expect(c.position.y[spark]).toBe(100);
    expect(velocity.x[spark]).toBe(-1.5); // bounced back at half speed
    expect(velocity.y[spark]).toBe(1); // along the wall: kept
    // Parted now: nothing more to push, and a velocity leaving the wall is kept.
    expect(pushOut(w, spark, wall, velocity, 0.5)).toBe(0);
    expect(velocity.x[spark]).toBe(-1.5);
    step();
    expect(getQuadtree(w).current.count).toBe(0);
  });

  it('stops a Swept ship that passed through a thin wall where it first touched, and its next path starts there', () => {
    for (const speed of [30, 60, 150]) {
      const { w, c, velocity, body, step } = world();
      const wall = body(100, 100, 16, 200, true); // x 92..108
      const ship = body(50, 100, 12, 12);
      addComponent(w, ship, Swept);
      step();
      let hits = 0;
      for (let f = 0; f < 6; f++) {
        velocity.x[ship] = speed;
        c.position.x[ship] += velocity.x[ship];
        step();
        if (getQuadtree(w).pairStartedAt(ship, wall) < 0) continue;
        hits++;
        pushOut(w, ship, wall, velocity);
        // At the wall's near face, never beyond it, and the run into it taken away.
        expect(c.position.x[ship] + 6).toBeCloseTo(92, 4);
        expect(velocity.x[ship]).toBe(0);
        const box = getQuadtree(w).getBox(ship, { minX: 0, minY: 0, maxX: 0, maxY: 0 });
        expect(box.maxX).toBeCloseTo(92, 4);
      }
      expect(hits).toBeGreaterThan(0);
      // Pushed back to the face, it no longer overlaps: the pair ends, not found again along the way back.
      step();
      expect(getQuadtree(w).pairStartedAt(ship, wall)).toBe(-1);
      validateTree(getQuadtree(w));
    }
    // One that began inside the wall and left it within the frame stays where it went.
    const { w, c, velocity, body, step } = world();
    const wall = body(100, 100, 16, 200, true);
    const leaver = body(100, 100, 12, 12);
    addComponent(w, leaver, Swept);
    step();
    c.position.x[leaver] = 140;
    velocity.x[leaver] = 40;
    step();
    expect(getQuadtree(w).pairStartedAt(leaver, wall)).toBeGreaterThanOrEqual(0);
    expect(pushOut(w, leaver, wall, velocity)).toBe(0);
    expect([c.position.x[leaver], velocity.x[leaver]]).toEqual([140, 40]);
  });

  it('parts two movers that each take half, and a restitution of 0 stops the one running in', () => {
    const { w, c, velocity, body, step } = world();
    const a = body(50, 50, 10, 10);
    const b = body(56, 50, 10, 10); // 4 px overlap along x
    velocity.x[a] = 2;
    step();
    expect(pushOut(w, a, b, velocity, 0, 0.5)).toBe(4);
    expect(pushOut(w, b, a, null, 0, 0.5)).toBe(2); // a moved already: half is left
    expect(c.position.x[a]).toBe(48);
    expect(c.position.x[b]).toBe(57);
    expect(velocity.x[a]).toBe(0);
  });

  it("is seen by the next sync with detect 'mark', and for a Static entity", () => {
    for (const detect of ['scan', 'mark'] as const) {
      const { w, body, step } = world(detect);
      const rock = body(100, 100, 20, 20);
      const crate = body(112, 100, 10, 10, true); // a Static crate 3 px into the rock
      const box = { minX: 0, minY: 0, maxX: 0, maxY: 0 };
      step();
      expect(pushOut(w, crate, rock)).toBe(3);
      step();
      expect(getQuadtree(w).getBox(crate, box).minX).toBe(110);
    }
  });

  it('refuses a share outside 0..1 and a bad restitution, naming the entity, and a non-pair as contact does', () => {
    const { w, velocity, body, step } = world();
    const a = body(50, 50, 10, 10);
    const b = body(55, 50, 10, 10);
    const far = body(150, 150, 10, 10);
    step();
    expect(() => pushOut(w, a, b, null, 0, 2)).toThrow(`pushOut of entity ${a}: share must be from 0 to 1 (got 2)`);
    expect(() => pushOut(w, a, b, null, 0, NaN)).toThrow('share must be from 0 to 1 (got NaN)');
    expect(() => pushOut(w, a, b, velocity, -1)).toThrow(
      `pushOut of entity ${a}: restitution must be a finite number of 0 or more (got -1)`,
    );
    expect(() => pushOut(w, a, b, velocity, Infinity)).toThrow('(got Infinity)');
    expect(() => pushOut(w, a, far)).toThrow(/contact of entities \d+ and \d+: they are not a pair/);
  });

  it('keeps a swarm out of the walls: after each frame of pushes no spark is inside a wall', () => {
    const { w, c, velocity, body, step } = world();
    const rng = new Rng(11);
    const walls = [body(100, 20, 160, 10, true), body(100, 180, 160, 10, true), body(20, 100, 10, 120, true)];
    const isWall = new Set(walls);
    const sparks = Array.from({ length: 200 }, () => {
      const eid = body(40 + rng.next() * 120, 40 + rng.next() * 120, 3, 3);
      velocity.x[eid] = rng.next() * 6 - 3;
      velocity.y[eid] = rng.next() * 6 - 3;
      return eid;
    });
    let pushes = 0;
    for (let f = 0; f < 120; f++) {
      for (const s of sparks) {
        c.position.x[s] += velocity.x[s];
        c.position.y[s] += velocity.y[s];
      }
      step();
      const { a, b, count } = getQuadtree(w).current;
      for (let i = 0; i < count; i++) {
        if (isWall.has(a[i]) === isWall.has(b[i])) continue;
        const [spark, wall] = isWall.has(a[i]) ? [b[i], a[i]] : [a[i], b[i]];
        if (pushOut(w, spark, wall, velocity, 1) > 0) pushes++;
      }
      for (const s of sparks) {
        for (const wall of walls) {
          const dx = Math.abs(c.position.x[s] - c.position.x[wall]) * 2 - (c.bounds.width[s] + c.bounds.width[wall]);
          const dy = Math.abs(c.position.y[s] - c.position.y[wall]) * 2 - (c.bounds.height[s] + c.bounds.height[wall]);
          expect(Math.max(dx, dy), `frame ${f}: spark ${s} inside wall ${wall}`).toBeGreaterThan(-1e-3);
        }
      }
    }
    expect(pushes).toBeGreaterThan(50);
  });
});
