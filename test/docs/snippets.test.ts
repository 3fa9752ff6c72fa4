import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { blocks, pages, root, where, type Block } from './markdown.js';

// The code on the pages must hold: every ```ts block of the README and of docs/*.md is
// type-checked against the sources (as `bitecs-quadtree`, `bitecs-quadtree/core` and
// `bitecs-quadtree/pixi`, through tsconfig.json's paths), and a block that shows an example
// file is that file, which `tsc` checks and test/examples runs. A renamed function breaks
// this test, not the reader.

const all: Block[] = pages().flatMap(blocks);
/** Languages a block may have: TypeScript (checked), and text that is not code. */
const NOT_CODE = new Set(['sh', 'text', 'html']);

describe('code on the pages', () => {
  it('finds the pages and their blocks', () => {
    expect(pages()).toContain('docs/getting-started.md');
    expect(all.filter((b) => b.lang === 'ts').length).toBeGreaterThan(10);
  });

  it('every block is TypeScript or says it is not code (sh, text, html)', () => {
    const bad = all.filter((b) => b.lang !== 'ts' && !NOT_CODE.has(b.lang)).map((b) => `${where(b)}: \`\`\`${b.lang}`);
    expect(bad).toEqual([]);
  });

  it('a block that shows an example file shows its code whole (laid out as the page likes)', () => {
    const shown = all.filter((b) => b.marker?.kind === 'example');
    expect(shown.length).toBeGreaterThan(3);
    for (const b of shown) {
      const file = readFileSync(join(root, b.marker!.file), 'utf8');
      expect(tokens(b.code).join(' '), `${where(b)} shows ${b.marker!.file}`).toBe(tokens(file).join(' '));
    }
  });

  it('a page may lay an example out its own way, not change its code', () => {
    expect(tokens('f(a, b);\n// note\nconst x = [1, 2];')).toEqual(tokens('f(\n  a,\n  b,\n);\nconst x = [\n  1,\n  2,\n];'));
    expect(tokens('f(a, b);')).not.toEqual(tokens('f(b, a);'));
    expect(tokens("log('1 2');")).not.toEqual(tokens("log('1  2');"));
  });

  it('every TypeScript block type-checks', () => {
    const dir = join(root, 'node_modules/.cache/doc-snippets');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const files = new Map<string, Block>();
    for (const b of all.filter((x) => x.lang === 'ts')) {
      // A block showing an example file keeps its name, so the examples' imports of each other resolve.
      const file =
        b.marker?.kind === 'example' ? join(dir, b.marker.file) : join(dir, `${b.page.replace(/[/.]/g, '_')}_${b.line}.ts`);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${b.code}\n`);
      files.set(file, b);
    }
    const configPath = join(root, 'tsconfig.json');
    const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, (file) => ts.sys.readFile(file)).config, ts.sys, root,
      undefined, configPath);
    const program = ts.createProgram([...files.keys()], {
      ...config.options,
      noEmit: true,
      // A page may show a value without using it.
      noUnusedLocals: false,
      noUnusedParameters: false,
      // Every block is a module of its own, with or without imports.
      moduleDetection: ts.ModuleDetectionKind.Force,
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      const block = d.file === undefined ? undefined : files.get(d.file.fileName);
      if (d.file === undefined || d.start === undefined) return text;
      const { line } = d.file.getLineAndCharacterOfPosition(d.start);
      // A block's first code line is the line after its fence.
      return block === undefined ? `${d.file.fileName}:${line + 1}: ${text}` : `${block.page}:${block.line + 1 + line}: ${text}`;
    });
    expect(problems).toEqual([]);
  }, 120_000);
});

/**
 * The tokens of a piece of TypeScript, without whitespace and comments and without the comma
 * (or the semicolon before a brace) a formatter may leave before a closing bracket: the files
 * under examples/ are laid out by the formatter, the pages show them compact.
 */
function tokens(code: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, code);
  const out: string[] = [];
  // Open `{` and `${` (a template's `}` must be scanned again as the template's next part).
  const open: ('brace' | 'template')[] = [];
  const closers = new Set([ts.SyntaxKind.CloseParenToken, ts.SyntaxKind.CloseBracketToken, ts.SyntaxKind.CloseBraceToken]);
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.CloseBraceToken && open.pop() === 'template') {
      kind = scanner.reScanTemplateToken(false);
      if (kind === ts.SyntaxKind.TemplateMiddle) open.push('template');
    } else if (closers.has(kind) && out.at(-1) === ',') {
      out.pop();
    }
    // The formatter ends a type literal's last member with `;` too.
    if (kind === ts.SyntaxKind.CloseBraceToken && out.at(-1) === ';') out.pop();
    if (kind === ts.SyntaxKind.OpenBraceToken) open.push('brace');
    if (kind === ts.SyntaxKind.TemplateHead) open.push('template');
    out.push(scanner.getTokenText());
  }
  return out;
}
