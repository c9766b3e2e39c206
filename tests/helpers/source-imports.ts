/** The project's sources and their relative imports, read from the files (architecture tests). */
import fs from 'node:fs';
import path from 'node:path';

/** Every .ts and .tsx file under `dir`. */
export function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/**
 * Every static relative import of a file (`import … from`, `export … from`, type-only ones too),
 * resolved to a path without its extension; dynamic `import()` loads later and is left out.
 */
export function imports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/from '(\.[^']+)'/g)].map((m) =>
    path.resolve(path.dirname(file), m[1] ?? ''),
  );
}
