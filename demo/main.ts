import { Application } from 'pixi.js';
import { getStats } from '../src/index.js';
import { Game, type Controls } from './game.js';
import { Hud, StatsPanel } from './hud.js';
import { Input } from './input.js';
import type { DemoState } from './state.js';
import { View } from './view.js';

declare global {
  interface Window {
    demoState?: DemoState;
  }
}

/** Seconds without input before the ship flies and shoots by itself. */
const AUTOPILOT_AFTER = 3;
const PARTICLE_BURST = 10_000;

/** A count from the page's query string (`?n=50000`), clamped; `fallback` when absent. */
function param(name: string, fallback: number): number {
  const n = Number.parseInt(new URLSearchParams(location.search).get(name) ?? '', 10);
  return Number.isFinite(n) ? Math.min(200_000, Math.max(0, n)) : fallback;
}

/** An element of the page, which index.html must have. */
function element(id: string): HTMLElement {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the page has no #${id}`);
  return found;
}

async function main(): Promise<void> {
  const app = new Application();
  await app.init({ resizeTo: window, background: 0x0a0f18, antialias: false });
  element('stage').appendChild(app.canvas);
  const input = new Input(window, app.canvas);
  const hud = new Hud(element('hud'));
  const view = new View(app.renderer);
  const stats = new StatsPanel();
  app.stage.addChild(view.root, stats.root);

  const n = param('n', 6000);
  // `?storm=100000`: a particle storm on top of the game (again after each reset).
  const storm = param('storm', 0);
  // `?effects=20000`: about that many explosion particles alive at all times, born and dying.
  const effects = param('effects', 0);
  let game = new Game(n, view);
  game.storm(storm);
  game.effects(effects);
  view.attach(game);
  let overlay = true;
  let paused = false;
  let frames = 0;
  let renderMs = 0;
  const controls: Controls = { moveX: 0, moveY: 0, aimX: 0, aimY: 0, fire: false };
  const gl = app.renderer.name === 'webgl' ? (app.renderer as { gl?: WebGLRenderingContext }).gl : undefined;
  const gpu = gl?.getExtension('WEBGL_debug_renderer_info');
  const rendererName =
    app.renderer.name + (gl && gpu ? ` (${String(gl.getParameter(gpu.UNMASKED_RENDERER_WEBGL))})` : '');

  const live = {
    get ready() {
      return frames >= 2;
    },
    get frames() {
      return frames;
    },
    get entities() {
      return game.entities;
    },
    get effects() {
      return game.effectsLive;
    },
    get waiting() {
      return getStats(game.world).deferred;
    },
    get onScreen() {
      return view.onScreen;
    },
    get pairs() {
      return getStats(game.world).pairs;
    },
    get pairsEntered() {
      return game.pairsEntered;
    },
    get sweptSaves() {
      return game.sweptSaves;
    },
    get score() {
      return game.score;
    },
    get pathsDrawn() {
      return overlay ? view.overlay.pathsDrawn : 0;
    },
    get overlay() {
      return overlay;
    },
    get budget() {
      return game.budget;
    },
    get paused() {
      return paused;
    },
    get renderer() {
      return rendererName;
    },
    get hud() {
      return stats.hud.text.text;
    },
    get hudShown() {
      return stats.shown;
    },
  };
  window.demoState = Object.freeze(live) satisfies DemoState;

  const restart = (): void => {
    const budget = game.budget;
    game.dispose();
    view.reset();
    game = new Game(n, view);
    game.storm(storm);
    game.effects(effects);
    game.setBudget(budget);
    view.attach(game);
  };

  app.ticker.add((ticker) => {
    for (const key of input.takePresses()) {
      if (key === 'KeyO') overlay = !overlay;
      else if (key === 'KeyB') game.setBudget(!game.budget);
      else if (key === 'KeyP') game.burst(PARTICLE_BURST);
      else if (key === 'KeyR') restart();
      else if (key === 'KeyH') hud.shown = stats.shown = !stats.shown;
      else if (key === 'Escape') paused = !paused;
    }
    const now = performance.now();
    const autopilot = now - input.lastInput > AUTOPILOT_AFTER * 1000;
    steer(controls, input, game, view, autopilot);
    if (!paused) game.step(Math.min(ticker.deltaMS / 1000, 1 / 30), controls);
    const t = performance.now();
    view.render(app.screen.width, app.screen.height, overlay, controls.aimX, controls.aimY);
    renderMs = performance.now() - t;
    frames++;
    stats.update(getStats(game.world), ticker.elapsedMS);
    hud.update(now, {
      entities: game.entities,
      onScreen: view.onScreen,
      times: game.times,
      renderMs,
      overlay,
      budget: game.budget,
      paused,
      autopilot,
      score: game.score,
      hits: game.hits,
      sweptSaves: game.sweptSaves,
    });
  });
}

/** Fills the controls from the keyboard and mouse, or from the autopilot. */
function steer(c: Controls, input: Input, game: Game, view: View, autopilot: boolean): void {
  const p = game.player;
  const { x: px, y: py } = game.positionOf(p);
  if (!autopilot) {
    c.moveX = (input.held('KeyD', 'ArrowRight') ? 1 : 0) - (input.held('KeyA', 'ArrowLeft') ? 1 : 0);
    c.moveY = (input.held('KeyS', 'ArrowDown') ? 1 : 0) - (input.held('KeyW', 'ArrowUp') ? 1 : 0);
    c.aimX = view.camX + input.mouseX;
    c.aimY = view.camY + input.mouseY;
    c.fire = input.mouseDown || input.held('Space');
    return;
  }
  // Autopilot: loop around the open middle of the arena, shooting the nearest enemy.
  const t = game.time;
  const patrol = game.patrolPoint(t);
  c.moveX = patrol.x - px;
  c.moveY = patrol.y - py;
  if (Math.hypot(c.moveX, c.moveY) < 8) c.moveX = c.moveY = 0;
  const target = game.nearestEnemy(px, py, 650);
  c.fire = target !== 0;
  if (target !== 0) {
    const e = game.positionOf(target);
    c.aimX = e.x;
    c.aimY = e.y;
  } else {
    c.aimX = px + Math.cos(t);
    c.aimY = py + Math.sin(t);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  element('hud').textContent = `The demo failed to start: ${String(e)}`;
});
