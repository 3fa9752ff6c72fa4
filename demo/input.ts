/** Keyboard and mouse state, read by the game each frame. */
export class Input {
  /** Keys held down, by `KeyboardEvent.code`. */
  readonly down = new Set<string>();
  /** Pointer position in screen pixels. */
  mouseX = 0;
  mouseY = 0;
  mouseDown = false;
  /** Time of the last player input, in `performance.now()` milliseconds. */
  lastInput = -Infinity;
  private readonly presses: string[] = [];

  constructor(target: Window, canvas: HTMLCanvasElement) {
    target.addEventListener('keydown', (e) => {
      if (e.repeat) return;
      this.down.add(e.code);
      this.presses.push(e.code);
      this.lastInput = performance.now();
      if (e.code === 'Space' || e.code.startsWith('Arrow')) e.preventDefault();
    });
    target.addEventListener('keyup', (e) => this.down.delete(e.code));
    target.addEventListener('blur', () => this.down.clear());
    canvas.addEventListener('pointermove', (e) => {
      this.mouseX = e.offsetX;
      this.mouseY = e.offsetY;
      this.lastInput = performance.now();
    });
    canvas.addEventListener('pointerdown', (e) => {
      this.mouseDown = true;
      this.mouseX = e.offsetX;
      this.mouseY = e.offsetY;
      this.lastInput = performance.now();
    });
    target.addEventListener('pointerup', () => (this.mouseDown = false));
    canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  }

  /** Keys pressed since the last call, oldest first. */
  takePresses(): string[] {
    return this.presses.splice(0, this.presses.length);
  }

  held(...codes: string[]): boolean {
    for (const c of codes) if (this.down.has(c)) return true;
    return false;
  }
}
