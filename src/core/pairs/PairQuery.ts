/**
 * The item a per-item check is pairing up, passed to the scan helpers (in the manner of
 * Box2D's `b2QueryPairContext`): its box, its collider and the token its known partners carry.
 * One object, reused for every check.
 */
export class PairQuery {
  id = 0;
  /** The step checking it. */
  step = 0;
  /** Known partners carry this in their SEEN field (see FewMovers.check). */
  token = 0;
  layer = 0;
  mask = 0;
  priority = 0;
  /** STATIC when the item is static, else 0 (ANDed with a candidate's flags). */
  isStatic = 0;
  /** The item's box. Kept in a Float64Array so the numbers stay unboxed. */
  readonly box = new Float64Array(4);
  /** Pair tests made for this item. */
  tests = 0;
}
