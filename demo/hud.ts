import type { QuadtreeWorldStats } from '../src/index.js';
import type { SystemTimes } from './game.js';

/** Numbers the HUD shows besides the plugin's stats. */
export interface HudInput {
  fps: number;
  /** Milliseconds since the previous frame. */
  frameMs: number;
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
 * The heads-up display: plain DOM text over the canvas, refreshed a few times a second from
 * running averages, so reading it costs nothing per frame.
 */
export class Hud {
  private readonly avg = new Map<string, number>();
  private last = 0;

  constructor(private readonly el: HTMLElement) {}

  update(now: number, h: HudInput, s: QuadtreeWorldStats): void {
    const t = h.times;
    this.smooth('control', t.control);
    this.smooth('move', t.move);
    this.smooth('sync', t.sync);
    this.smooth('collision', t.collision);
    this.smooth('dispatch', t.dispatch);
    this.smooth('cleanup', t.cleanup);
    this.smooth('render', h.renderMs);
    this.smooth('frame', h.frameMs);
    this.smooth('plugin', t.sync + t.collision + t.dispatch);
    this.smooth('game', t.control + t.move + t.cleanup);
    if (now - this.last < 250) return;
    this.last = now;
    const ms = (k: string): string => (this.avg.get(k) ?? 0).toFixed(2);
    const tier = (i: number): string => n(s.enteredByTier[i] + s.stayedByTier[i]);
    const on = (b: boolean): string => (b ? '<b class="on">on</b>' : '<b class="off">off</b>');
    this.el.innerHTML = [
      `<div class="title">bitecs-quadtree <span>shooter</span><span class="fps">${n(h.fps)} FPS</span></div>`,
      row('entities', `${n(h.entities)} <i>· on screen ${n(h.onScreen)}</i>`),
      row('pairs', `${n(s.pairs)} <i>· +${n(s.entered)} −${n(s.exited)} this frame</i>`),
      row(
        'by tier',
        `<span class="t0">0: ${tier(0)}</span> · <span class="t1">1: ${tier(1)}</span> · <span class="t2">2: ${tier(2)}</span> · <span class="t3">3: ${tier(3)}</span>`,
      ),
      row('checks', `${n(s.pairTests)} tests · ${n(s.dirty)} moved · ${n(s.relocated)} relocated`),
      row(
        'budget',
        `${on(h.budget)} <i>·</i> ${n(s.deferred)} waiting${s.waitBound > 0 ? ` <i>(each checked within ${n(s.waitBound)} frames)</i>` : ''} · ${n(s.handlerDeferred)} calls`,
      ),
      row('tree', `${n(s.nodesLive)} nodes live · ${n(s.nodesFree)} free`),
      row('plugin', `<b>${ms('plugin')} ms</b> <i>· game ${ms('game')} ms · of a ${ms('frame')} ms frame</i>`),
      row('ms', `sync ${ms('sync')} · collide ${ms('collision')} · dispatch ${ms('dispatch')}`),
      row('', `game ${ms('control')} · move ${ms('move')} · cleanup ${ms('cleanup')} · draw ${ms('render')}`),
      row(
        'score',
        `${n(h.score)} <i>· hits taken ${n(h.hits)}</i>${h.autopilot ? ' <i>· autopilot</i>' : ''}${h.paused ? ' <b class="off">paused</b>' : ''}`,
      ),
      row('swept', `${n(h.sweptSaves)} bullet hits an end-of-frame test would have missed`),
      '<div class="keys"><kbd>WASD</kbd> move · <kbd>mouse</kbd> aim · <kbd>click</kbd> <kbd>space</kbd> fire</div>',
      `<div class="keys"><kbd>O</kbd> overlay ${on(h.overlay)} · <kbd>B</kbd> budget · <kbd>P</kbd> +10k particles · <kbd>R</kbd> reset · <kbd>Esc</kbd> pause</div>`,
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
