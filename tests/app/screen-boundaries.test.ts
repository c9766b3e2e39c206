/**
 * Screens never import from other screens (issue 9, "Order screens as data"): what two screens
 * share is a component or a hook. Read from the sources, so a new import is caught at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SCREENS = path.resolve(import.meta.dirname, '../../src/app/screens');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every relative import of a file, resolved to a path. */
function imports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/from '(\.[^']+)'/g)].map((m) =>
    path.resolve(path.dirname(file), m[1] ?? ''),
  );
}

describe('screens never import from other screens', () => {
  const files = sources(SCREENS);

  it('finds the screens', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files.map((file) => [path.relative(SCREENS, file), file]))('%s', (_name, file) => {
    const fromScreens = imports(file)
      .filter((target) => target.startsWith(`${SCREENS}${path.sep}`))
      .map((target) => path.relative(SCREENS, target));
    expect(fromScreens).toEqual([]);
  });
});
