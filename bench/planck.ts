import { AABB, BroadPhase, Settings, Vec2, type FixtureProxy } from 'planck';
import type { Contender, ContenderSpec, PairSum } from './contender.js';
import { PairPool } from './pair-pool.js';
import { DT, type Scene } from './scene.js';

/**
 * `Settings.lengthUnitsPerMeter` kept with --no-tune: planck's default, a fat-AABB margin of
 * 0.1 px (plus twice the displacement ahead).
 */
export const DEFAULT_UNIT_PX = 1;

/**
 * planck's BroadPhase (Box2D's dynamic AABB tree with fat AABBs and a move buffer) plus a
 * contact list kept as Box2D's contact manager keeps it: `updatePairs` adds pairs for the
 * proxies that left their fat AABB; every frame each contact is dropped when the fat AABBs
 * part, otherwise tested exactly.
 */
class PlanckContender implements Contender {
  private bp = new BroadPhase();
  private proxy = new Int32Array(0);
  private readonly aabb = new AABB();
  private readonly displacement = new Vec2(0, 0);
  private pool = new PairPool(0);
  private readonly unitPx: number;

  constructor(unitPx: number) {
    this.unitPx = unitPx;
  }

  private readonly addPair = (userA: FixtureProxy, userB: FixtureProxy): void => {
    const x = userA as unknown as number;
    const y = userB as unknown as number;
    const a = x < y ? x : y;
    const b = x < y ? y : x;
    if (this.pool.find(a, b) < 0) this.pool.add(a, b);
  };

  setup(scene: Scene): void {
    Settings.lengthUnitsPerMeter = this.unitPx;
    this.bp = new BroadPhase();
    this.proxy = new Int32Array(scene.n);
    this.pool = new PairPool(scene.n);
    for (let i = 0; i < scene.n; i++) {
      this.setBox(scene, i);
      this.proxy[i] = this.bp.createProxy(this.aabb, i as unknown as FixtureProxy);
    }
  }

  frame(scene: Scene, sum: PairSum): void {
    // A global that moveProxy reads: set per frame, as other margins run interleaved.
    Settings.lengthUnitsPerMeter = this.unitPx;
    const { bp, proxy, displacement } = this;
    const { movers, vx, vy, minX, minY, maxX, maxY } = scene;
    for (let k = 0; k < movers.length; k++) {
      const i = movers[k];
      this.setBox(scene, i);
      displacement.x = vx[i] * DT;
      displacement.y = vy[i] * DT;
      bp.moveProxy(proxy[i], this.aabb, displacement);
    }
    bp.updatePairs(this.addPair);
    const { pool } = this;
    const { ca, cb } = pool;
    for (let c = 0; c < pool.count;) {
      const a = ca[c],
        b = cb[c];
      if (!bp.testOverlap(proxy[a], proxy[b])) {
        pool.remove(c);
        continue;
      }
      if (minX[a] < maxX[b] && minX[b] < maxX[a] && minY[a] < maxY[b] && minY[b] < maxY[a]) sum.add(a, b);
      c++;
    }
  }

  private setBox(scene: Scene, i: number): void {
    this.aabb.lowerBound.x = scene.minX[i];
    this.aabb.lowerBound.y = scene.minY[i];
    this.aabb.upperBound.x = scene.maxX[i];
    this.aabb.upperBound.y = scene.maxY[i];
  }
}

export function planckSpec(unitPx = DEFAULT_UNIT_PX): ContenderSpec {
  return {
    key: 'planck',
    name: 'planck',
    note: `\`BroadPhase\` (Box2D's dynamic AABB tree), \`lengthUnitsPerMeter\` ${unitPx} (fat margin ${0.1 * unitPx} px, plus twice the displacement ahead); \`moveProxy\` the movers, \`updatePairs\`, then a contact list kept like Box2D's contact manager: a contact is dropped when the fat AABBs part, the rest are tested exactly`,
    tuning: { what: 'lengthUnitsPerMeter', candidates: [1, 4, 16], fallback: DEFAULT_UNIT_PX, build: planckSpec },
    create: () => new PlanckContender(unitPx),
  };
}
