import { Container, Graphics, Text } from 'pixi.js';
import type { QuadtreeWorldStats } from '../src/index.js';
import { QuadtreeHud, type HudLine } from '../src/pixi/index.js';
import type { SystemTimes } from './game.js';

const PAD = 8;
/**
 * Every line the plugin's HUD has: the demo is there to show what the plugin does. A still
 * (`?still`, the README's picture) leaves out the frame rate, which a software renderer sets.
 */
const STILL = new URLSearchParams(location.search).has('still');
const LINES: HudLine[] = [
  ...(STILL ? [] : (['fps'] as const)),
  'entities',
  'pairs',
  'tiers',
  'deferred',
  'ms',
  'handlers',
  'checks',
  'tree',
];

/** The plugin's stats HUD at the top left of the canvas, on a dark panel. */
export class StatsPanel {
  readonly root = new Container();
  readonly hud: QuadtreeHud<Text>;
  private readonly panel = new Graphics();
  // The panel only widens, so it does not twitch as numbers change length.
  private width = 0;

  constructor() {
    const style = {
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
      fontSize: 12,
      lineHeight: 17,
      fill: 0xc9d6e8,
    };
    this.hud = new QuadtreeHud(new Text({ style }), { lines: LINES, x: PAD, y: PAD });
    this.root.position.set(10, 10);
    this.root.addChild(this.panel, this.hud.text);
  }

  get shown(): boolean {
    return this.root.visible;
  }

  set shown(on: boolean) {
    this.root.visible = on;
  }

  update(stats: QuadtreeWorldStats, deltaMs: number): void {
    if (!this.hud.update(stats, deltaMs)) return;
    const text = this.hud.text;
    if (text.width <= this.width) return;
    this.width = Math.ceil(text.width);
    this.panel
      .clear()
      .roundRect(0, 0, this.width + 2 * PAD, text.height + 2 * PAD, 6)
      .fill({ color: 0x05090f, alpha: 0.72 })
      .stroke({ color: 0x1e2d44, width: 1 });
  }
}

/** What the demo's own panel shows: the game's side of things. */
export interface HudInput {
  /** Entities in the world. */
  entities: number;
  onScreen: number;
  times: SystemTimes;
  renderMs: number;
  overlay: boolean;
  budget: boolean;
  paused: boolean;
  autopilot: boolean;
  score: number;
  hits: number;
  /** Bullet hits found along the bullet's path that its end box alone would have missed. */
  sweptSaves: number;
}

const fmt = new Intl.NumberFormat('en-US');
const n = (v: number): string => fmt.format(Math.round(v));

/**
 * The demo's own panel: plain DOM text under the canvas's stats, refreshed a few times a
 * second from running averages, with the keys.
 */
export class Hud {
  private readonly avg = new Map<string, number>();
  private last = 0;

  constructor(private readonly el: HTMLElement) {}

  set shown(on: boolean) {
    this.el.style.display = on ? '' : 'none';
  }

  update(now: number, h: HudInput): void {
    const t = h.times;
    this.smooth('control', t.control);
    this.smooth('move', t.move);
    this.smooth('cleanup', t.cleanup);
    this.smooth('render', h.renderMs);
    if (now - this.last < 250) return;
    this.last = now;
    const ms = (k: string): string => (this.avg.get(k) ?? 0).toFixed(2);
    const on = (b: boolean): string => (b ? '<b class="on">on</b>' : '<b class="off">off</b>');
    this.el.innerHTML = [
      '<div class="title">bitecs-quadtree <span>shooter</span></div>',
      row('on screen', `${n(h.onScreen)} <i>of ${n(h.entities)} entities</i>`),
      row('game ms', `control ${ms('control')} · move ${ms('move')} · cleanup ${ms('cleanup')} · draw ${ms('render')}`),
      row('budget', on(h.budget)),
      row(
        'score',
        `${n(h.score)} <i>· hits taken ${n(h.hits)}</i>${h.autopilot ? ' <i>· autopilot</i>' : ''}${h.paused ? ' <b class="off">paused</b>' : ''}`,
      ),
      row('swept', `${n(h.sweptSaves)} bullet hits an end-of-frame test would have missed`),
      '<div class="keys"><kbd>WASD</kbd> move · <kbd>mouse</kbd> aim · <kbd>click</kbd> <kbd>space</kbd> fire</div>',
      `<div class="keys"><kbd>O</kbd> overlay ${on(h.overlay)} · <kbd>B</kbd> budget · <kbd>P</kbd> +10k particles · <kbd>R</kbd> reset · <kbd>H</kbd> HUD · <kbd>Esc</kbd> pause</div>`,
    ].join('');
  }

  private smooth(key: string, value: number): void {
    const prev = this.avg.get(key);
    this.avg.set(key, prev === undefined ? value : prev * 0.9 + value * 0.1);
  }
}

function row(label: string, value: string): string {
  return `<div class="row"><label>${label}</label><span>${value}</span></div>`;
}
