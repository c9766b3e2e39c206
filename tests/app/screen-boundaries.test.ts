/**
 * Screens never import from other screens: what two screens
 * share is a component or a hook. Read from the sources, so a new import is caught at once.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { imports, sources } from '../helpers/source-imports';

const SCREENS = path.resolve(import.meta.dirname, '../../src/app/screens');

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
