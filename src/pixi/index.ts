/**
 * `bitecs-quadtree/pixi`: optional PixiJS v8 helpers, a debug overlay of the tree, a stats
 * HUD, and viewport culling of sprites and particles through the tree's rectangle query,
 * which place what is in view and forget the entities a bitECS world removes.
 * Needs `pixi.js` 8 (an optional peer dependency); imports only its types.
 * @module bitecs-quadtree/pixi
 */
export { QuadtreeOverlay, depthColor, type QuadtreeOverlayOptions, type OverlayTree } from './overlay.js';
export {
  SpriteCuller,
  ParticleCuller,
  type CullOptions,
  type Cullable,
  type CullTree,
  type NeedsPlaceable,
  type Placeable,
  type PositionSource,
} from './culling.js';
export { forgetRemoved, type Forgetting } from './forget.js';
export {
  QuadtreeHud,
  type QuadtreeHudOptions,
  type HudLine,
  type HudStats,
  type HudText,
  type HudTimings,
} from './hud.js';
