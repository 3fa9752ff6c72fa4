import { AABB, BroadPhase, Settings, Vec2, type FixtureProxy } from 'planck';
import type { Contender, ContenderSpec, PairSum } from './contender.js';
import { DT, type Scene } from './scene.js';

/**
 * `Settings.lengthUnitsPerMeter` used in the table: planck's default, a fat-AABB margin of
 * 0.1 px (plus twice the displacement ahead). Larger margins (4, 10, 32) measured slower here.
 */
export const DEFAULT_UNIT_PX = 1;

/**
 * planck's BroadPhase (Box2D's dynamic AABB tree with fat AABBs and a move buffer) plus a
 * contact list kept as Box2D's contact manager keeps it: `updatePairs` adds pairs for the
 * proxies that left their fat AABB; every frame each contact is dropped when the fat AABBs
 * part, otherwise tested exactly. Contacts live in a dense pool with per-item edge lists.
 */
class PlanckContender implements Contender {
  private bp = new BroadPhase();
  private proxy = new Int32Array(0);
  private readonly aabb = new AABB();
  private readonly displacement = new Vec2(0, 0);
  // Contact c joins items ca[c] < cb[c]; its edges are 2c (in ca's list) and 2c+1 (in cb's).
  private count = 0;
  private ca: Int32Array = new Int32Array(1024);
  private cb: Int32Array = new Int32Array(1024);
  private next: Int32Array = new Int32Array(2048);
  private prev: Int32Array = new Int32Array(2048);
  private head = new Int32Array(0);
  private readonly unitPx: number;

  constructor(unitPx: number) {
    this.unitPx = unitPx;
  }

  private readonly addPair = (userA: FixtureProxy, userB: FixtureProxy): void => {
    const x = userA as unknown as number;
    const y = userB as unknown as number;
    const a = x < y ? x : y;
    const b = x < y ? y : x;
    for (let e = this.head[a]; e !== -1; e = this.next[e]) {
      if ((e & 1) === 0 && this.cb[e >> 1] === b) return;
      if ((e & 1) === 1 && this.ca[e >> 1] === b) return;
    }
    this.create(a, b);
  };

  setup(scene: Scene): void {
    Settings.lengthUnitsPerMeter = this.unitPx;
    this.bp = new BroadPhase();
    this.proxy = new Int32Array(scene.n);
    this.head = new Int32Array(scene.n).fill(-1);
    this.count = 0;
    for (let i = 0; i < scene.n; i++) {
      this.setBox(scene, i);
      this.proxy[i] = this.bp.createProxy(this.aabb, i as unknown as FixtureProxy);
    }
  }

  frame(scene: Scene, sum: PairSum): void {
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
    const { ca, cb } = this;
    for (let c = 0; c < this.count;) {
      const a = ca[c],
        b = cb[c];
      if (!bp.testOverlap(proxy[a], proxy[b])) {
        this.destroy(c);
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

  private create(a: number, b: number): void {
    if (this.count === this.ca.length) this.grow();
    const c = this.count++;
    this.ca[c] = a;
    this.cb[c] = b;
    this.link(2 * c, a);
    this.link(2 * c + 1, b);
  }

  /** Removes contact c by moving the last contact into its slot. */
  private destroy(c: number): void {
    this.unlink(2 * c, this.ca[c]);
    this.unlink(2 * c + 1, this.cb[c]);
    const last = --this.count;
    if (c === last) return;
    const a = this.ca[last],
      b = this.cb[last];
    this.unlink(2 * last, a);
    this.unlink(2 * last + 1, b);
    this.ca[c] = a;
    this.cb[c] = b;
    this.link(2 * c, a);
    this.link(2 * c + 1, b);
  }

  private link(e: number, item: number): void {
    const h = this.head[item];
    this.next[e] = h;
    this.prev[e] = -1;
    if (h !== -1) this.prev[h] = e;
    this.head[item] = e;
  }

  private unlink(e: number, item: number): void {
    const p = this.prev[e],
      n = this.next[e];
    if (p === -1) this.head[item] = n;
    else this.next[p] = n;
    if (n !== -1) this.prev[n] = p;
  }

  private grow(): void {
    const size = this.ca.length * 2;
    this.ca = copy(this.ca, size);
    this.cb = copy(this.cb, size);
    this.next = copy(this.next, 2 * size);
    this.prev = copy(this.prev, 2 * size);
  }
}

function copy(a: Int32Array, size: number): Int32Array {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}

export function planckSpec(unitPx = DEFAULT_UNIT_PX): ContenderSpec {
  return {
    key: 'planck',
    name: 'planck',
    note: `\`BroadPhase\` (Box2D's dynamic AABB tree), \`lengthUnitsPerMeter\` ${unitPx} (fat margin ${0.1 * unitPx} px, plus twice the displacement ahead); \`moveProxy\` the movers, \`updatePairs\`, then a contact list kept like Box2D's contact manager: a contact is dropped when the fat AABBs part, the rest are tested exactly`,
    create: () => new PlanckContender(unitPx),
  };
}
