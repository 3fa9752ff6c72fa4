import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pages, root } from './markdown.js';

// Links between the pages (and to files of the repository) lead somewhere: the file exists,
// and a #fragment names a heading of the page it points to.

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function anchors(page: string): Set<string> {
  const text = readFileSync(join(root, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1])));
}

describe('links on the pages', () => {
  it('every relative link names a file that exists, and a heading that exists', () => {
    const broken: string[] = [];
    for (const page of pages()) {
      const text = readFileSync(join(root, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [path, fragment] = target.split('#') as [string, string | undefined];
        const file = path === '' ? page : normalize(join(dirname(page), path));
        if (!existsSync(join(root, file))) broken.push(`${page}: ${target} (no file ${file})`);
        else if (fragment !== undefined && file.endsWith('.md') && !anchors(file).has(fragment)) {
          broken.push(`${page}: ${target} (no heading #${fragment} in ${file})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("every link into the repository by its URL names a file of the repository's main branch", () => {
    // Absolute, for what the package does not ship (the demo's picture, examples/): the same
    // file here must exist, so the link works on GitHub once this is merged.
    const broken: string[] = [];
    let seen = 0;
    for (const page of pages()) {
      const text = readFileSync(join(root, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const path = repositoryPath(target);
        if (path === null) continue;
        seen++;
        const [file, fragment] = path.split('#') as [string, string | undefined];
        if (!existsSync(join(root, file))) broken.push(`${page}: ${target} (no file ${file})`);
        else if (fragment !== undefined && file.endsWith('.md') && !anchors(file).has(fragment)) {
          broken.push(`${page}: ${target} (no heading #${fragment} in ${file})`);
        }
      }
    }
    expect(seen).toBeGreaterThan(0);
    expect(broken).toEqual([]);
  });
});

/** The path in the repository that a URL of its main branch names, or null for another URL. */
function repositoryPath(url: string): string | null {
  const m =
    /^https:\/\/github\.com\/bitecs-quadtree\/bitecs-quadtree\/(?:blob|tree)\/main\/(.+)$/.exec(url) ??
    /^https:\/\/raw\.githubusercontent\.com\/bitecs-quadtree\/bitecs-quadtree\/main\/(.+)$/.exec(url);
  return m === null ? null : m[1];
}
