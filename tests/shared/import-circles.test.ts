/**
 * No module of src imports itself through others: a circle makes the order in
 * which modules load decide what is defined, and says that a rule shared by two sides lives on
 * one of them instead of below both. Type-only imports count: they are a dependency all the same.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { imports, sources } from '../helpers/source-imports';

const SRC = path.resolve(import.meta.dirname, '../../src');

/** The file an import names: `x.ts`, `x.tsx` or `x/index.ts`. */
function fileOf(target: string): string | undefined {
  return [`${target}.ts`, `${target}.tsx`, path.join(target, 'index.ts'), target].find(
    (candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile(),
  );
}

/** Every circle of the import graph, each as the files along it (depth-first, each found once). */
function circles(root: string, files: readonly string[]): string[][] {
  const edges = new Map(
    files.map((file) => [
      file,
      imports(file)
        .map(fileOf)
        .filter((target): target is string => target !== undefined && target.startsWith(root)),
    ]),
  );
  const found: string[][] = [];
  const done = new Set<string>();
  const visit = (file: string, trail: string[]): void => {
    const at = trail.indexOf(file);
    if (at >= 0) {
      found.push(trail.slice(at).map((f) => path.relative(root, f)));
      return;
    }
    if (done.has(file)) return;
    trail.push(file);
    for (const target of edges.get(file) ?? []) visit(target, trail);
    trail.pop();
    done.add(file);
  };
  for (const file of files) visit(file, []);
  return found;
}

describe('imports', () => {
  const files = sources(SRC);

  it('finds a circle of type-only imports through three files', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circles-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b';\n");
      fs.writeFileSync(path.join(dir, 'b.ts'), "export { c } from './c';\n");
      fs.writeFileSync(path.join(dir, 'c.ts'), "import { a } from './a';\n");
      fs.writeFileSync(path.join(dir, 'd.ts'), "import { a } from './a';\n");
      expect(circles(dir, sources(dir))).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('form no circle in src', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(circles(SRC, files)).toEqual([]);
  });
});
