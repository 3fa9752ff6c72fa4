import { beforeEach, describe, expect, it } from 'vitest';
import {
  LooseQuadtree,
  type BudgetOptions,
  type QuadtreeOptions,
  type RayHit,
  validateTree,
} from '../../src/core/index.js';
import { readPairs, snapshotBoxes } from './helpers.js';

const IDS = [1, 2, 3, 4, 900];
const BAD_NUMBERS: [number, string][] = [
  [NaN, 'NaN'],
  [Infinity, 'Infinity'],
  [-Infinity, '-Infinity'],
  // Past float32's range, where boxes are stored.
  [1e300, '1e+300'],
  [-3.5e38, '-3.5e+38'],
];
const FIELDS = ['minX', 'minY', 'maxX', 'maxY'] as const;

let tree: LooseQuadtree;

/** A small scene with pairs, a static wall, a far-away item and a pending insert. */
function scene(): LooseQuadtree {
  const t = new LooseQuadtree({ x: -100, y: 0, width: 1000, height: 300, maxId: 1000 });
  t.insert(1, 0, 0, 20, 20);
  t.insert(2, 10, 10, 30, 30);
  t.insert(3, 25, 25, 40, 40);
  t.insert(4, -1e6, 0, -1e6 + 5, 5);
  t.insert(900, 0, 0, 500, 10);
  t.setStatic(900, true);
  t.setCollider(3, 2, -1, 200);
  t.setCollider(2, 1, -1, 100);
  t.setCollider(1, 1, -1, 50);
  t.step();
  return t;
}

interface Snapshot {
  boxes: ReturnType<typeof snapshotBoxes>;
  pairs: ReturnType<typeof readPairs>;
  size: number;
}

function snapshot(t: LooseQuadtree): Snapshot {
  return {
    boxes: snapshotBoxes(
      t,
      IDS.filter((id) => t.has(id)),
    ),
    pairs: readPairs(t.current),
    size: t.size,
  };
}

/**
 * Expects `call` to throw a library Error whose message holds every fragment, and the index
 * to be as before: valid, same boxes, same size. Returns the snapshot taken before.
 */
function expectRefused(call: () => unknown, ...fragments: string[]): Snapshot {
  const before = snapshot(tree);
  let error: unknown = null;
  try {
    call();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(Error);
  const message = (error as Error).message;
  expect(message.startsWith('bitecs-quadtree: '), message).toBe(true);
  for (const f of fragments) expect(message).toContain(f);
  validateTree(tree);
  expect(snapshot(tree)).toEqual(before);
  return before;
}

/** {@link expectRefused}, then a step that finds nothing to do (nothing may be pending). */
function expectRejected(call: () => unknown, ...fragments: string[]): void {
  const before = expectRefused(call, ...fragments);
  const stats = tree.step();
  validateTree(tree);
  expect(stats.moved).toBe(0);
  expect(tree.entered.count + tree.exited.count).toBe(0);
  expect(readPairs(tree.current)).toEqual(before.pairs);
}

beforeEach(() => {
  tree = scene();
});

describe('bad input is refused with a clear error, and the index is untouched', () => {
  it('the scene has pairs to protect', () => {
    expect(readPairs(tree.current)).toEqual([
      [2, 3, 100],
      [1, 2, 50],
      [1, 900, 50],
    ]);
  });

  for (const [value, shown] of BAD_NUMBERS) {
    for (let f = 0; f < 4; f++) {
      const box = (): [number, number, number, number] => {
        const b: [number, number, number, number] = [5, 5, 15, 15];
        b[f] = value;
        return b;
      };
      it(`insert / move with ${FIELDS[f]} = ${shown}`, () => {
        expectRejected(() => tree.insert(50, ...box()), 'item 50', FIELDS[f], `(got ${shown})`);
        expect(tree.has(50)).toBe(false);
        expectRejected(() => tree.insert(51, ...box()), 'item 51', FIELDS[f], `(got ${shown})`);
        expect(tree.has(51)).toBe(false);
        expect(tree.flush()).toBe(0);
        expectRejected(() => tree.move(2, ...box()), 'item 2', FIELDS[f], `(got ${shown})`);
        // A pending item keeps its queued box when a move is refused.
        tree.insert(52, 100, 100, 110, 110);
        expectRefused(() => tree.move(52, ...box()), 'item 52', FIELDS[f], `(got ${shown})`);
        expect(tree.getBox(52, { minX: 0, minY: 0, maxX: 0, maxY: 0 })).toEqual({
          minX: 100,
          minY: 100,
          maxX: 110,
          maxY: 110,
        });
        // The refused ids are still free.
        tree.insert(50, 0, 0, 1, 1);
        validateTree(tree);
      });
    }
  }

  it('negative width or height (min > max)', () => {
    expectRejected(() => tree.insert(50, 10, 0, 5, 10), 'item 50', 'negative width', 'minX 10', 'maxX 5', 'corners');
    expectRejected(() => tree.insert(50, 0, 10, 10, 9.5), 'item 50', 'negative height', 'minY 10', 'maxY 9.5');
    expectRejected(() => tree.insert(51, 10, 0, 5, 10), 'item 51', 'width', 'minX 10', 'maxX 5');
    expectRejected(() => tree.move(1, 0, 0, -1, 10), 'item 1', 'width', 'minX 0', 'maxX -1');
    expectRejected(() => tree.move(1, 0, 0, 10, -0.001), 'item 1', 'height', 'minY 0', 'maxY -0.001');
    // Zero size is fine.
    tree.insert(50, 7, 7, 7, 7);
    validateTree(tree);
  });

  it('ids that are not non-negative integers', () => {
    for (const [id, shown] of [
      [-1, '-1'],
      [1.5, '1.5'],
      [NaN, 'NaN'],
      [Infinity, 'Infinity'],
      [-0.5, '-0.5'],
    ] as const) {
      expectRejected(() => tree.insert(id, 0, 0, 1, 1), 'id', `(got ${shown})`);
      expectRejected(() => tree.insert(id, 0, 0, 1, 1), 'id', `(got ${shown})`);
      expectRejected(() => tree.move(id, 0, 0, 1, 1), 'id', `(got ${shown})`);
      expectRejected(() => tree.remove(id), 'id', `(got ${shown})`);
      expectRejected(() => tree.setCollider(id, 1, -1, 1), 'id', `(got ${shown})`);
      expectRejected(() => tree.setStatic(id, true), 'id', `(got ${shown})`);
      expectRejected(() => tree.getBox(id, { minX: 0, minY: 0, maxX: 0, maxY: 0 }), 'id', `(got ${shown})`);
      expect(tree.has(id)).toBe(false);
    }
    expectRejected(() => tree.insert('3' as unknown as number, 0, 0, 1, 1), 'id', '(got "3")');
    // A value that is not a number is named as it was passed, not as the number it would become.
    expectRejected(() => tree.insert(5, 'abc' as unknown as number, 0, 1, 1), 'item 5', 'minX', '(got "abc")');
    expectRejected(() => tree.insert(5, 0, 0, 1, {} as unknown as number), 'item 5', 'maxY', '(got [object Object])');
  });

  it('ids at or beyond the maxId option', () => {
    expectRejected(() => tree.insert(1000, 0, 0, 1, 1), 'id 1000', 'below 1000', 'maxId');
    expectRejected(() => tree.insert(2 ** 31, 0, 0, 1, 1), `id ${2 ** 31}`, 'maxId');
    expectRejected(() => tree.move(1000, 0, 0, 1, 1), 'id 1000', 'maxId');
    expectRejected(() => tree.remove(5000), 'id 5000', 'maxId');
    tree.insert(999, 0, 0, 1, 1);
    validateTree(tree);
  });

  it('inserting an id that is present (placed or pending)', () => {
    expectRejected(() => tree.insert(1, 500, 100, 510, 110), 'item 1', 'already');
    expectRejected(() => tree.insert(2, 500, 100, 510, 110), 'item 2', 'already');
    tree.insert(60, 500, 100, 510, 110);
    expectRefused(() => tree.insert(60, 0, 0, 1, 1), 'item 60', 'already');
    expectRefused(() => tree.insert(60, 0, 0, 1, 1), 'item 60', 'already');
    expect(tree.getBox(60, { minX: 0, minY: 0, maxX: 0, maxY: 0 }).minX).toBe(500);
    expect(tree.flush()).toBe(1);
  });

  it('unknown ids: never inserted, removed, or beyond the storage grown so far', () => {
    const box = { minX: 0, minY: 0, maxX: 0, maxY: 0 };
    for (const id of [77, 998]) {
      expectRejected(() => tree.move(id, 0, 0, 1, 1), 'move', `item ${id}`);
      expectRejected(() => tree.remove(id), 'remove', `item ${id}`);
      expectRejected(() => tree.setCollider(id, 1, -1, 1), 'setCollider', `item ${id}`);
      expectRejected(() => tree.setStatic(id, true), 'setStatic', `item ${id}`);
      expectRejected(() => tree.getBox(id, box), 'getBox', `item ${id}`);
      expectRejected(() => tree.getCollider(id, { layer: 0, mask: 0, priority: 0 }), 'getCollider', `item ${id}`);
      expectRejected(() => tree.pairsOf(id, []), 'pairsOf', `item ${id}`);
    }
  });

  it('getCollider gives back what setCollider set, pending items included', () => {
    tree.insert(62, 0, 0, 1, 1);
    const out = { layer: 0, mask: 0, priority: 0 };
    expect(tree.getCollider(62, out)).toEqual({ layer: 1, mask: -1, priority: 128 });
    tree.setCollider(62, 0x40000000, 0x80000001 | 0, 7);
    expect(tree.getCollider(62, out)).toBe(out);
    expect(out).toEqual({ layer: 0x40000000, mask: 0x80000001 | 0, priority: 7 });
    tree.flush();
    expect(tree.getCollider(62, out)).toEqual({ layer: 0x40000000, mask: 0x80000001 | 0, priority: 7 });
  });

  it('removing twice', () => {
    tree.remove(2);
    tree.step();
    validateTree(tree);
    expectRejected(() => tree.remove(2), 'remove', 'item 2');
    expectRejected(() => tree.move(2, 0, 0, 1, 1), 'item 2');
    expectRejected(() => tree.getBox(2, { minX: 0, minY: 0, maxX: 0, maxY: 0 }), 'item 2');
    // Removed while pending, then removed again.
    tree.insert(61, 0, 0, 1, 1);
    tree.remove(61);
    expectRejected(() => tree.remove(61), 'remove', 'item 61');
    expect(tree.flush()).toBe(0);
  });

  it('bad layer, mask or priority; nothing is half-applied', () => {
    expectRejected(() => tree.setCollider(1, 0, -1, 1), 'item 1', 'layer', '(got 0)');
    expectRejected(() => tree.setCollider(1, 1.5, -1, 1), 'item 1', 'layer', '(got 1.5)');
    expectRejected(() => tree.setCollider(1, NaN, -1, 1), 'item 1', 'layer', '(got NaN)');
    expectRejected(() => tree.setCollider(1, 2 ** 32, -1, 1), 'item 1', 'layer', `(got ${2 ** 32})`);
    expectRejected(() => tree.setCollider(1, 1, 0.5, 1), 'item 1', 'mask', '(got 0.5)');
    expectRejected(() => tree.setCollider(1, 1, Infinity, 1), 'item 1', 'mask', '(got Infinity)');
    for (const [p, shown] of [
      [-1, '-1'],
      [256, '256'],
      [1.5, '1.5'],
      [NaN, 'NaN'],
    ] as const) {
      // A valid new layer and mask with a bad priority: the layer must not change either.
      expectRejected(() => tree.setCollider(2, 4, 4, p), 'item 2', 'priority', `(got ${shown})`);
    }
    expectRejected(() => tree.setCollider(2, 0, 0, 0), 'item 2', 'layer');
  });

  it('bad query arguments', () => {
    // A pending insert stays pending: the checks run before anything is placed.
    tree.insert(70, 0, 0, 5, 5);
    const out: number[] = [];
    const dist: number[] = [];
    const hit: RayHit = { id: 123, distance: 456 };
    for (let f = 0; f < 4; f++) {
      const q = [0, 0, 10, 10];
      q[f] = NaN;
      expectRefused(() => tree.queryRect(q[0], q[1], q[2], q[3], out), `query ${FIELDS[f]}`, '(got NaN)');
      q[f] = Infinity;
      expectRefused(() => tree.visitRect(q[0], q[1], q[2], q[3], () => true), `query ${FIELDS[f]}`, '(got Infinity)');
    }
    expectRefused(() => tree.queryCircle(0, 0, -1, out), 'radius', '(got -1)');
    expectRefused(() => tree.queryCircle(0, 0, NaN, out), 'radius', '(got NaN)');
    expectRefused(() => tree.visitCircle(NaN, 0, 1, () => true), 'circle x', '(got NaN)');
    expectRefused(() => tree.queryCircle(0, -Infinity, 1, out), 'circle y', '(got -Infinity)');
    expectRefused(() => tree.queryPoint(NaN, 0, out), 'point x', '(got NaN)');
    expectRefused(() => tree.visitPoint(0, Infinity, () => true), 'point y', '(got Infinity)');
    expectRefused(() => tree.raycast(0, 0, 0, 0, 10, hit), 'direction', 'zero');
    expectRefused(() => tree.raycastAll(0, 0, 0, -0, 10, out, dist), 'direction', 'zero');
    expectRefused(() => tree.raycast(0, 0, NaN, 1, 10, hit), 'direction x', '(got NaN)');
    expectRefused(() => tree.raycast(NaN, 0, 1, 0, 10, hit), 'origin x', '(got NaN)');
    expectRefused(() => tree.raycast(0, 0, 1, 0, -1, hit), 'maxDistance', '(got -1)');
    expectRefused(() => tree.raycastAll(0, 0, 1, 0, NaN, out, dist), 'maxDistance', '(got NaN)');
    expectRefused(() => tree.nearest(0, 0, -1, 10, out), 'k', '(got -1)');
    expectRefused(() => tree.nearest(0, 0, 1.5, 10, out), 'k', '(got 1.5)');
    expectRefused(() => tree.nearest(0, 0, 1, -1, out), 'maxDistance', '(got -1)');
    expectRefused(() => tree.nearest(NaN, 0, 1, 1, out), 'point x', '(got NaN)');
    // Refused raycasts leave the caller's hit alone.
    expect(hit).toEqual({ id: 123, distance: 456 });
    expect(tree.flush()).toBe(1);
  });

  it("query numbers past float32's range, for every query and argument; its edge and an endless range pass", () => {
    const F32 = 3.4028234663852886e38;
    const out: number[] = [];
    const dist: number[] = [];
    const hit: RayHit = { id: 123, distance: 456 };
    const sweep = { id: 123, toi: 456 };
    // Each query with its arguments' names and values in range (edges at ±F32 where the order allows).
    const queries: [name: string, args: [string, number][], call: (a: number[]) => unknown][] = [
      ['queryRect', rect(), (a) => tree.queryRect(a[0], a[1], a[2], a[3], out)],
      ['visitRect', rect(), (a) => tree.visitRect(a[0], a[1], a[2], a[3], () => true)],
      ['queryCircle', circle(), (a) => tree.queryCircle(a[0], a[1], a[2], out)],
      ['visitCircle', circle(), (a) => tree.visitCircle(a[0], a[1], a[2], () => true)],
      ['queryPoint', point(), (a) => tree.queryPoint(a[0], a[1], out)],
      ['visitPoint', point(), (a) => tree.visitPoint(a[0], a[1], () => true)],
      ['raycast', ray(), (a) => tree.raycast(a[0], a[1], a[2], a[3], a[4], hit)],
      ['raycastAll', ray(), (a) => tree.raycastAll(a[0], a[1], a[2], a[3], a[4], out, dist)],
      ['nearest', [...point(), ['maxDistance', F32]], (a) => tree.nearest(a[0], a[1], 3, a[2], out, dist)],
      [
        'sweepBox',
        [...rect(), ['sweep dx', -F32], ['sweep dy', F32]],
        (a) => tree.sweepBox(a[0], a[1], a[2], a[3], a[4], a[5], sweep),
      ],
    ];
    function rect(): [string, number][] {
      return [
        ['query minX', -F32],
        ['query minY', -F32],
        ['query maxX', F32],
        ['query maxY', F32],
      ];
    }
    function circle(): [string, number][] {
      return [
        ['circle x', -F32],
        ['circle y', F32],
        ['circle radius', F32],
      ];
    }
    function point(): [string, number][] {
      return [
        ['point x', F32],
        ['point y', -F32],
      ];
    }
    function ray(): [string, number][] {
      return [
        ['ray origin x', -F32],
        ['ray origin y', F32],
        ['ray direction x', F32],
        ['ray direction y', -F32],
        ['ray maxDistance', F32],
      ];
    }
    // The double just past float32's largest, far past it, and past it below.
    const past: [number, string][] = [
      [F32 * (1 + 2 ** -52), '3.4028234663852894e+38'],
      [1e300, '1e+300'],
      [-3.5e38, '-3.5e+38'],
    ];
    let refused = 0;
    for (const [name, args, call] of queries) {
      const values = args.map(([, v]) => v);
      // At float32's edge every argument passes, and a range may be endless.
      expect(() => call(values), name).not.toThrow();
      if (name.startsWith('ray') || name === 'nearest') {
        expect(() => call([...values.slice(0, -1), Infinity]), name).not.toThrow();
      }
      args.forEach(([arg], i) => {
        for (const [value, shown] of past) {
          // A negative radius or range says so first.
          if (value < 0 && (arg.endsWith('radius') || arg.endsWith('maxDistance'))) continue;
          const a = [...values];
          a[i] = value;
          expectRefused(() => call(a), `${arg} ${shown} is past float32's range (±3.4e38)`);
          refused++;
        }
      });
    }
    // 37 arguments, three values each, less the negative radii (2) and ranges (3).
    expect(refused).toBe(3 * 37 - 5);
    expect(hit).not.toEqual({ id: 123, distance: 456 });
  });

  it('a missing or wrong output argument or visitor, named for every query', () => {
    // Plain JavaScript may leave them out: the casts stand for such calls.
    const none = undefined as never;
    const output = (call: string, param: string, got: string, kind = 'an array') =>
      `${call} writes its answer into ${param}, which must be ${kind} the caller owns (got ${got})`;
    expectRefused(() => tree.queryRect(0, 0, 20, 20, none), output('queryRect', 'out', 'undefined'));
    expectRefused(() => tree.queryCircle(10, 10, 5, none), output('queryCircle', 'out', 'undefined'));
    // A typed array could not take more ids than it has room for.
    expectRefused(
      () => tree.queryPoint(10, 10, new Int32Array(4) as never),
      output('queryPoint', 'out', 'an Int32Array'),
    );
    expectRefused(() => tree.raycast(0, 10, 1, 0, 50, none), output('raycast', 'hit', 'undefined', 'an object'));
    expectRefused(() => tree.raycastAll(0, 10, 1, 0, 50, [], none), output('raycastAll', 'outDistances', 'undefined'));
    expectRefused(() => tree.nearest(0, 0, 2, 100, null as never), output('nearest', 'outIds', 'null'));
    expectRefused(() => tree.sweepBox(0, 0, 1, 1, 9, 9, none), output('sweepBox', 'hit', 'undefined', 'an object'));
    expectRefused(() => tree.contact(1, 2, none), output('contact', 'out', 'undefined', 'an object'));
    for (const call of ['visitRect', 'visitCircle', 'visitPoint'] as const) {
      const visit = (v: never): number =>
        call === 'visitRect'
          ? tree.visitRect(0, 0, 9, 9, v)
          : call === 'visitCircle'
            ? tree.visitCircle(5, 5, 5, v)
            : tree.visitPoint(5, 5, v);
      expectRefused(
        () => visit(none),
        `${call} calls visit for each item found, which must be a function (got undefined)`,
      );
    }
    expectRefused(() => tree.setStatic(1, 'no' as never), `item 1's static flag must be true or false (got "no")`);
  });

  it('an inverted query rectangle', () => {
    const out: number[] = [];
    expectRefused(() => tree.queryRect(10, 0, 3, 10, out), 'query rectangle', 'minX 10 > maxX 3');
    expectRefused(() => tree.visitRect(0, 10, 10, -1, () => true), 'query rectangle', 'minY 10 > maxY -1');
    // A degenerate rectangle (a line or a point) is fine.
    expect(tree.queryRect(5, 5, 5, 5, out)).toBe(2);
  });

  it('query masks that are not 32-bit integers, for every query', () => {
    const out: number[] = [];
    const dist: number[] = [];
    const hit: RayHit = { id: 123, distance: 456 };
    const queries: ((mask: number) => unknown)[] = [
      (m) => tree.queryRect(0, 0, 10, 10, out, m),
      (m) => tree.visitRect(0, 0, 10, 10, () => true, m),
      (m) => tree.queryCircle(0, 0, 10, out, m),
      (m) => tree.visitCircle(0, 0, 10, () => true, m),
      (m) => tree.queryPoint(5, 5, out, m),
      (m) => tree.visitPoint(5, 5, () => true, m),
      (m) => tree.raycast(0, 5, 1, 0, 100, hit, m),
      (m) => tree.raycastAll(0, 5, 1, 0, 100, out, dist, m),
      (m) => tree.nearest(0, 0, 3, 100, out, dist, m),
    ];
    const bad: [unknown, string][] = [
      [NaN, 'NaN'],
      [1.5, '1.5'],
      [2 ** 32, '4294967296'],
      [-(2 ** 31) - 1, '-2147483649'],
      [Infinity, 'Infinity'],
      ['1', '"1"'],
      [null, 'null'],
    ];
    for (const query of queries) {
      for (const [mask, shown] of bad) expectRefused(() => query(mask as number), 'query mask', `(got ${shown})`);
      // Every 32-bit pattern is accepted, signed or unsigned, as with setCollider.
      for (const mask of [0, 1, -1, 0xffffffff, -(2 ** 31), 2 ** 31]) expect(() => query(mask)).not.toThrow();
    }
    expect(hit.id).not.toBe(123);
  });

  it('bad options and budgets', () => {
    const build = (o: object) => () => new LooseQuadtree(o);
    const messageOf = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as Error).message;
      }
      return 'did not throw';
    };
    expect(messageOf(build({ width: 0 }))).toMatch(/^bitecs-quadtree: .*width.*\(got 0\)/);
    expect(messageOf(build({ height: -5 }))).toMatch(/^bitecs-quadtree: .*height.*\(got -5\)/);
    expect(messageOf(build({ width: NaN }))).toMatch(/^bitecs-quadtree: .*width.*\(got NaN\)/);
    expect(messageOf(build({ x: Infinity }))).toMatch(/^bitecs-quadtree: .*x.*\(got Infinity\)/);
    expectRejected(() => tree.setBudget({ maxPairTests: -1 }), 'maxPairTests', '(got -1)');
    expectRejected(() => tree.setBudget({ maxMs: NaN }), 'maxMs', '(got NaN)');
    // Whole-number options are clamped into range, but what is not a number is refused, not clamped.
    const odd = (o: object) => o as QuadtreeOptions;
    expect(messageOf(build(odd({ maxDepth: '8' })))).toBe(
      'bitecs-quadtree: option maxDepth must be a number (got "8")',
    );
    expect(messageOf(build({ lifespan: NaN }))).toBe('bitecs-quadtree: option lifespan must be a number (got NaN)');
    expect(messageOf(build(odd({ maxLifespan: true })))).toBe(
      'bitecs-quadtree: option maxLifespan must be a number (got true)',
    );
    // Except maxId, where no clamp makes sense of a limit below 1 or between two integers.
    for (const [maxId, shown] of [
      ['1e6', '"1e6"'],
      [0, '0'],
      [-5, '-5'],
      [1.5, '1.5'],
      [NaN, 'NaN'],
    ] as const)
      expect(messageOf(build(odd({ maxId })))).toBe(
        `bitecs-quadtree: option maxId must be a whole number of at least 1, or Infinity (got ${shown})`,
      );
    // Infinity, or more than 32 bits, is the largest limit.
    expect(messageOf(() => new LooseQuadtree({ maxId: Infinity }).insert(2 ** 31 - 1, 0, 0, 1, 1))).toBe(
      'bitecs-quadtree: id 2147483647 is past the id limit: ids must be below 2147483647 (option maxId)',
    );
    expect(messageOf(build(odd({ touching: 'false' })))).toBe(
      'bitecs-quadtree: option touching must be true or false (got "false")',
    );
    expect(messageOf(build({ maxDepth: 99, lifespan: 0 }))).toBe('did not throw');
    expectRejected(
      () => tree.setBudget({ minChecksPerTier: '64' } as unknown as BudgetOptions),
      'budget.minChecksPerTier',
      '(got "64")',
    );
  });

  it('a refused setBudget leaves the budget in force', () => {
    const t = new LooseQuadtree({ budget: { maxPairTests: 0, minChecksPerTier: 1 } });
    for (let i = 0; i < 5; i++) t.insert(i, i * 200, 0, i * 200 + 10, 10);
    expect(() => t.setBudget({ maxPairTests: 100, maxMs: NaN })).toThrow(/^bitecs-quadtree: .*maxMs/);
    expect(() => t.setBudget({ maxPairTests: 100, minChecksPerTier: 50, maxMs: -1 })).toThrow(
      /^bitecs-quadtree: .*maxMs/,
    );
    // Still one check per step for the lower tiers.
    expect(t.step().moved).toBe(1);
    expect(t.stats.deferred).toBe(4);
  });
});
