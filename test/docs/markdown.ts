import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The repository's root. */
export const root = resolve(import.meta.dirname, '../..');

/** A fenced code block of a page. */
export interface Block {
  /** The page, relative to the root (`docs/core.md`). */
  page: string;
  /** Line of the opening fence, from 1. */
  line: number;
  /** The fence's language (`ts`, `sh`, `text`...), or '' when it has none. */
  lang: string;
  code: string;
  /**
   * The file named by a comment on the line just above the fence:
   * `<!-- example: examples/core.ts -->` for a block that shows that file whole,
   * `<!-- output: examples/core.ts -->` for a block that shows what running it prints.
   */
  marker: { kind: 'example' | 'output'; file: string } | null;
}

/** The pages whose code must hold: the README and every guide under docs/. */
export function pages(): string[] {
  const guides = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`);
  return ['README.md', ...guides];
}

/** Every fenced block of a page. */
export function blocks(page: string): Block[] {
  const lines = readFileSync(join(root, page), 'utf8').split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})([\w-]*)\s*$/.exec(lines[i]);
    if (open === null) continue;
    const [, indent, fence, lang] = open;
    let end = i + 1;
    while (end < lines.length && lines[end].trimEnd() !== `${indent}${fence}`) end++;
    if (end === lines.length) throw new Error(`${page}:${i + 1}: the fence is never closed`);
    const code = lines.slice(i + 1, end).map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l)).join('\n');
    const above = /^\s*<!--\s*(example|output):\s*(\S+)\s*-->\s*$/.exec(lines[i - 1] ?? '');
    out.push({
      page, line: i + 1, lang, code,
      marker: above === null ? null : { kind: above[1] as 'example' | 'output', file: above[2] },
    });
    i = end;
  }
  return out;
}

/** A block's place, for messages: `docs/core.md:12`. */
export function where(b: Block): string {
  return `${b.page}:${b.line}`;
}

/** Every file under `dir` (relative to the root) whose name ends with `ext`. */
export function filesUnder(dir: string, ext: string): string[] {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(ext)) found.push(relative(root, path));
    }
  };
  walk(join(root, dir));
  return found.sort();
}
