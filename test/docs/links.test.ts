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
});
