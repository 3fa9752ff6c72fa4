/**
 * Exact rational arithmetic over doubles (every double is m * 2^e, a rational), and the shape
 * tests written with it: an independent model for the library's floating-point geometry.
 */

/** A rational n / d with d > 0. */
export class Q {
  constructor(
    readonly n: bigint,
    readonly d: bigint,
  ) {}

  static readonly ZERO = new Q(0n, 1n);
  static readonly ONE = new Q(1n, 1n);

  /** The exact value of a finite double. */
  static of(v: number): Q {
    if (!Number.isFinite(v)) throw new Error(`not finite: ${v}`);
    let d = 1n;
    // Doubling a double is exact; at most 1074 halvings separate it from an integer.
    while (!Number.isInteger(v)) {
      v *= 2;
      d *= 2n;
    }
    return new Q(BigInt(v), d);
  }

  static frac(n: number, d: number): Q {
    return new Q(BigInt(n), 1n).div(new Q(BigInt(d), 1n));
  }

  add(o: Q): Q {
    return new Q(this.n * o.d + o.n * this.d, this.d * o.d).reduce();
  }

  sub(o: Q): Q {
    return new Q(this.n * o.d - o.n * this.d, this.d * o.d).reduce();
  }

  mul(o: Q): Q {
    return new Q(this.n * o.n, this.d * o.d).reduce();
  }

  div(o: Q): Q {
    if (o.n === 0n) throw new Error('division by zero');
    const sign = o.n < 0n ? -1n : 1n;
    return new Q(this.n * o.d * sign, this.d * o.n * sign).reduce();
  }

  half(): Q {
    return new Q(this.n, this.d * 2n).reduce();
  }

  neg(): Q {
    return new Q(-this.n, this.d);
  }

  sign(): number {
    return this.n > 0n ? 1 : this.n < 0n ? -1 : 0;
  }

  cmp(o: Q): number {
    return this.sub(o).sign();
  }

  lt(o: Q): boolean {
    return this.cmp(o) < 0;
  }

  le(o: Q): boolean {
    return this.cmp(o) <= 0;
  }

  min(o: Q): Q {
    return this.le(o) ? this : o;
  }

  max(o: Q): Q {
    return this.le(o) ? o : this;
  }

  toNumber(): number {
    return Number(this.n) / Number(this.d);
  }

  private reduce(): Q {
    let a = this.n < 0n ? -this.n : this.n;
    let b = this.d;
    while (b !== 0n) [a, b] = [b, a % b];
    return a > 1n ? new Q(this.n / a, this.d / a) : this;
  }
}

/** A box as exact numbers: minX, minY, maxX, maxY. */
export type QBox = [Q, Q, Q, Q];

export function qbox(minX: number, minY: number, maxX: number, maxY: number): QBox {
  return [Q.of(minX), Q.of(minY), Q.of(maxX), Q.of(maxY)];
}

/** A shape: a box, or the circle inscribed in it. */
export interface QShape {
  box: QBox;
  circle: boolean;
}

function centre(b: QBox): [Q, Q] {
  return [b[0].add(b[2]).half(), b[1].add(b[3]).half()];
}

/** The smaller half-side, as the tree's inscribedRadius. */
function radius(b: QBox): Q {
  const rx = b[2].sub(b[0]).half(),
    ry = b[3].sub(b[1]).half();
  return ry.lt(rx) ? ry : rx;
}

/** Squared distance from a point to a box (0 inside). */
function pointBoxD2(x: Q, y: Q, b: QBox): Q {
  const dx = x.lt(b[0]) ? b[0].sub(x) : b[2].lt(x) ? x.sub(b[2]) : Q.ZERO;
  const dy = y.lt(b[1]) ? b[1].sub(y) : b[3].lt(y) ? y.sub(b[3]) : Q.ZERO;
  return dx.mul(dx).add(dy.mul(dy));
}

/**
 * How far apart two shapes are, as a sign-exact measure: negative when they overlap, 0 when
 * they only touch, positive when apart. (Boxes: the larger gap of the two axes; circles:
 * squared distances against squared radii, whose sign is the same.)
 */
export function gap(a: QShape, b: QShape): Q {
  if (!a.circle && !b.circle) {
    const gx = a.box[0].sub(b.box[2]).max(b.box[0].sub(a.box[2]));
    const gy = a.box[1].sub(b.box[3]).max(b.box[1].sub(a.box[3]));
    return gx.max(gy);
  }
  if (a.circle && b.circle) {
    const [ax, ay] = centre(a.box);
    const [bx, by] = centre(b.box);
    const r = radius(a.box).add(radius(b.box));
    const dx = bx.sub(ax),
      dy = by.sub(ay);
    return dx.mul(dx).add(dy.mul(dy)).sub(r.mul(r));
  }
  const c = a.circle ? a : b;
  const box = a.circle ? b.box : a.box;
  const [cx, cy] = centre(c.box);
  const r = radius(c.box);
  return pointBoxD2(cx, cy, box).sub(r.mul(r));
}

/**
 * A circle of radius 0 is a point, and a point is a box of no size: it overlaps what holds it
 * in the open interior (the closed shape, with `touching`). ({@link gap} keeps the circle's
 * measure, which is continuous in the radius: a path's radius may pass through 0.)
 */
function asPoint(s: QShape): QShape {
  if (!s.circle || radius(s.box).sign() !== 0) return s;
  const [x, y] = centre(s.box);
  return { box: [x, y, x, y], circle: false };
}

/** Whether two shapes overlap under the rule. */
export function overlaps(a: QShape, b: QShape, touching: boolean): boolean {
  const g = gap(asPoint(a), asPoint(b)).sign();
  return touching ? g <= 0 : g < 0;
}

/** A box at time t of a path whose corners move linearly from `from` to `to`. */
export function boxAt(from: QBox, to: QBox, t: Q): QBox {
  return from.map((v, i) => v.add(to[i].sub(v).mul(t))) as QBox;
}

/** A shape moving over the frame (t from 0 to 1). */
export interface QPath {
  from: QBox;
  to: QBox;
  circle: boolean;
}

function shapeAt(p: QPath, t: Q): QShape {
  return { box: boxAt(p.from, p.to, t), circle: p.circle };
}

/**
 * The times at which the measure between two moving shapes may change form: where a circle's
 * centre crosses a box's side, or (two boxes) where two of the four linear gaps cross. Between
 * two of them the measure is one polynomial of degree at most 2 in t.
 */
function breakpoints(a: QPath, b: QPath): Q[] {
  const times: Q[] = [Q.ZERO, Q.ONE];
  // f(t) = g(t), each linear from (v0 at 0) to (v1 at 1).
  const cross = (f0: Q, f1: Q, g0: Q, g1: Q): void => {
    const c = f0.sub(g0),
      k = f1.sub(g1).sub(c);
    if (k.sign() === 0) return;
    const t = c.neg().div(k);
    if (Q.ZERO.le(t) && t.le(Q.ONE)) times.push(t);
  };
  if (!a.circle && !b.circle) {
    const gaps: [Q, Q][] = [];
    for (let axis = 0; axis < 2; axis++) {
      gaps.push([a.from[axis].sub(b.from[axis + 2]), a.to[axis].sub(b.to[axis + 2])]);
      gaps.push([b.from[axis].sub(a.from[axis + 2]), b.to[axis].sub(a.to[axis + 2])]);
    }
    for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) cross(gaps[i][0], gaps[i][1], gaps[j][0], gaps[j][1]);
  } else {
    const points = (p: QPath, axis: number): [Q, Q][] =>
      p.circle
        ? [[p.from[axis].add(p.from[axis + 2]).half(), p.to[axis].add(p.to[axis + 2]).half()]]
        : [
            [p.from[axis], p.to[axis]],
            [p.from[axis + 2], p.to[axis + 2]],
          ];
    for (let axis = 0; axis < 2; axis++) {
      for (const [v0, v1] of points(a, axis)) for (const [w0, w1] of points(b, axis)) cross(v0, v1, w0, w1);
    }
  }
  times.sort((x, y) => x.cmp(y));
  return times.filter((t, i) => i === 0 || t.cmp(times[i - 1]) !== 0);
}

/**
 * The least of the gap measure over [lo, hi], exactly: on each piece between breakpoints the
 * measure is a polynomial of degree at most 2 in t (for boxes, the max of linear functions,
 * whose least lies at a piece end or where two of them cross, which are breakpoints too), so
 * its least is at an end or at the vertex.
 */
export function leastGap(a: QPath, b: QPath, lo: Q, hi: Q): Q {
  if (hi.lt(lo)) throw new Error('empty interval');
  const cuts = [lo, ...breakpoints(a, b).filter((t) => lo.lt(t) && t.lt(hi)), hi];
  const g = (t: Q): Q => gap(shapeAt(a, t), shapeAt(b, t));
  let best = g(lo);
  for (let i = 0; i + 1 < cuts.length; i++) {
    const t0 = cuts[i],
      t1 = cuts[i + 1];
    best = best.min(g(t1));
    if (!a.circle && !b.circle) continue;
    // Fit the quadratic through three points of the piece and take its vertex.
    const tm = t0.add(t1).half();
    const g0 = g(t0),
      gm = g(tm),
      g1 = g(t1);
    const h = tm.sub(t0);
    if (h.sign() === 0) continue;
    // g(t0 + s h) = g0 + s (4 gm - 3 g0 - g1) / 2 + s^2 (g0 - 2 gm + g1) / 2 for s in [0, 2]
    const A = g0.sub(gm.add(gm)).add(g1).half();
    const B = gm
      .mul(new Q(4n, 1n))
      .sub(g0.mul(new Q(3n, 1n)))
      .sub(g1)
      .half();
    if (A.sign() <= 0) continue;
    const s = B.neg().div(A.add(A));
    if (Q.ZERO.lt(s) && s.lt(new Q(2n, 1n))) best = best.min(g(t0.add(s.mul(h))));
  }
  return best;
}

/** Whether two moving shapes meet at some t in [lo, hi] under the rule. */
export function meetWithin(a: QPath, b: QPath, lo: Q, hi: Q, touching: boolean): boolean {
  const g = leastGap(a, b, lo, hi).sign();
  return touching ? g <= 0 : g < 0;
}

/**
 * A moving shape. A circle of radius 0 at both ends is a point all along, so a box (see
 * asPoint); one whose radius is 0 at a single time differs from its circle measure only at
 * that time, which no interval of positive length depends on.
 */
export function qpath(from: readonly number[], to: readonly number[], circle: boolean): QPath {
  const start = { box: qbox(from[0], from[1], from[2], from[3]), circle },
    end = { box: qbox(to[0], to[1], to[2], to[3]), circle };
  if (!circle || radius(start.box).sign() !== 0 || radius(end.box).sign() !== 0) {
    return { from: start.box, to: end.box, circle };
  }
  return { from: asPoint(start).box, to: asPoint(end).box, circle: false };
}
