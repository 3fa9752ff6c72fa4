/** What the demo shows on `window.demoState`, for tests and the screenshot script. Read-only. */
export interface DemoState {
  /** True once the first frame has been drawn. */
  readonly ready: boolean;
  /** Frames drawn so far (they go on while paused). */
  readonly frames: number;
  /** Entities in the world. */
  readonly entities: number;
  /** Effect particles alive (`?effects=N` keeps about N). */
  readonly effects: number;
  /** Items the plugin's budget left waiting after the last step. */
  readonly waiting: number;
  /** Entities whose sprites were on screen in the last frame. */
  readonly onScreen: number;
  /** Collision pairs after the last step. */
  readonly pairs: number;
  /** Pairs that began, summed over every step so far. */
  readonly pairsEntered: number;
  /** Bullet hits found on a bullet's path that a test of its end box would have missed (see Game.sweptSaves). */
  readonly sweptSaves: number;
  /** Enemies shot. */
  readonly score: number;
  /** Swept bullet paths the overlay drew in the last frame. */
  readonly pathsDrawn: number;
  readonly overlay: boolean;
  readonly budget: boolean;
  readonly paused: boolean;
  /** `webgl` or `webgpu`, with the GPU's name when the browser tells it. */
  readonly renderer: string;
  /** The text of the plugin's stats HUD drawn on the canvas (`QuadtreeHud`). */
  readonly hud: string;
  /** False once the H key hid the HUD. */
  readonly hudShown: boolean;
}
