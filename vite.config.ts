import path from 'node:path';
import { constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { defineConfig } from 'vitest/config';

/** The most the first chunk (the entry and what it imports statically) may weigh: kB gzip. */
const FIRST_CHUNK_BUDGET_KB = 110;

/** Packages the landing never needs: forms, the deposit QR code, address checksums. */
const NOT_IN_FIRST_CHUNK = ['react-hook-form', '@hookform', 'uqr', '@noble/hashes'];

/** The flow a module of `src/app/screens/<flow>/` belongs to: one chunk per flow. */
function screenFlow(id: string): string | null {
  return /[\\/]src[\\/]app[\\/]screens[\\/]([a-z0-9-]+)[\\/]/.exec(id)?.[1] ?? null;
}

/** The console's own modules: its screens and its feature (what only the console uses). */
const CONSOLE_MODULE = /[\\/]src[\\/]app[\\/](screens|features)[\\/]console[\\/]/;

/**
 * The language and namespace of a dictionary chunk: a namespace of its own
 * (`i18n/<language>/<namespace>/index.ts`, the bot's or the console's words), or null for the
 * customer's dictionary (`i18n/<language>/index.ts`).
 */
function dictionaryOf(
  id: string | null,
): { readonly language: string; readonly namespace: string | null } | null {
  const match = /[\\/]i18n[\\/](\w+)[\\/](?:(\w+)[\\/])?index\.ts$/.exec(id ?? '');
  return match?.[1] === undefined ? null : { language: match[1], namespace: match[2] ?? null };
}

/** The language of a customer's dictionary chunk, else null. */
const customerDictionary = (id: string | null): string | null => {
  const dictionary = dictionaryOf(id);
  return dictionary?.namespace === null ? dictionary.language : null;
};

const gzipKb = (code: string) => gzipSync(code, { level: 9 }).length / 1000;

/**
 * Prints, on a line of its own, what a phone downloads before the landing shows: the entry chunk
 * and every chunk it imports statically (gzip, kB of 1000 bytes as Vite counts), and the
 * dictionary chunks, one of which start-up loads beside it. Fails the build above the budget.
 */
function firstChunkSize(): Plugin {
  return {
    name: 'first-chunk-size',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map(
        Object.values(bundle).flatMap((item) =>
          item.type === 'chunk' ? [[item.fileName, item] as const] : [],
        ),
      );
      const entry = [...chunks.values()].find((chunk) => chunk.isEntry);
      if (entry === undefined) return;
      const first = new Set<string>();
      const visit = (name: string) => {
        if (first.has(name)) return;
        first.add(name);
        chunks.get(name)?.imports.forEach(visit);
      };
      visit(entry.fileName);
      const misplaced = [...first]
        .flatMap((name) => chunks.get(name)?.moduleIds ?? [])
        .filter((id) => NOT_IN_FIRST_CHUNK.some((pkg) => id.includes(`/node_modules/${pkg}/`)));
      if (misplaced.length > 0) this.error(`the first chunk holds ${misplaced.join(', ')}`);
      const kb = [...first].reduce((sum, name) => sum + gzipKb(chunks.get(name)?.code ?? ''), 0);
      const dictionaries = [...chunks.values()]
        .flatMap((chunk) => {
          const language = customerDictionary(chunk.facadeModuleId);
          return language === null ? [] : [`${language} ${gzipKb(chunk.code).toFixed(1)} kB`];
        })
        .join(', ');
      const line =
        `first chunk: ${kb.toFixed(1)} kB gzip (${[...first].join(' + ')}; budget ` +
        `${FIRST_CHUNK_BUDGET_KB} kB); the customer's dictionary loads beside it (${dictionaries})`;
      if (kb > FIRST_CHUNK_BUDGET_KB) this.error(line);
      // The operators' console: every chunk holding its code, none of them in the first chunk.
      const consoleChunks = [...chunks.values()].filter((chunk) =>
        chunk.moduleIds.some((id) => CONSOLE_MODULE.test(id)),
      );
      // Its words, the dictionaries' `console` namespace: an operator loads one language's.
      const consoleWords = [...chunks.values()].filter(
        (chunk) => dictionaryOf(chunk.facadeModuleId)?.namespace === 'console',
      );
      const leaked = [...consoleChunks, ...consoleWords].filter((chunk) =>
        first.has(chunk.fileName),
      );
      if (leaked.length > 0)
        this.error(`the first chunk holds the console (${leaked[0]?.fileName})`);
      const consoleKb = consoleChunks.reduce((sum, chunk) => sum + gzipKb(chunk.code), 0);
      const words = consoleWords
        .map((c) => `${c.fileName} ${gzipKb(c.code).toFixed(1)} kB`)
        .join(', ');
      const consoleLine =
        `operator console: ${consoleKb.toFixed(1)} kB gzip ` +
        `(${consoleChunks.map((c) => c.fileName).join(' + ')}) and its words in the ` +
        `operator's language (${words}), loaded by operators only`;
      // On stdout, not through the logger: the lines show whatever the log level.
      process.stdout.write(`\n${line}\n${consoleLine}\n`);
    },
  };
}

/**
 * The customers' dictionaries fetched with the entry (`<link rel="modulepreload">` in index.html):
 * start-up imports one of them (the stored language, else the default) only once the entry has
 * run, a round trip after it on a phone's network, and the landing waits for it. Preloaded, it is
 * there when asked for. Every language is: the choice is stored in the browser, out of the
 * server's sight, and a dictionary is about 6 kB, a fraction of the round trip it saves.
 */
function preloadDictionaries(): Plugin {
  return {
    name: 'preload-dictionaries',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (_html, { bundle }) =>
        Object.values(bundle ?? {}).flatMap((item) =>
          item.type === 'chunk' && customerDictionary(item.facadeModuleId) !== null
            ? [
                {
                  tag: 'link',
                  attrs: { rel: 'modulepreload', crossorigin: true, href: `/${item.fileName}` },
                  injectTo: 'head' as const,
                },
              ]
            : [],
        ),
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    firstChunkSize(),
    preloadDictionaries(),
    // Brotli and gzip copies beside every text file, built once: the server sends the one the
    // browser takes (@fastify/static's preCompressed), and so can any static host.
    compression({
      logLevel: 'silent',
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
    }),
  ],
  // The design card keeps the top level to package.json, src, i18n, public, tests…: the app's
  // index.html lives with the app.
  root: path.resolve(import.meta.dirname, 'src/app'),
  publicDir: path.resolve(import.meta.dirname, 'public'),
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    target: 'es2020',
    // No source maps: dist/ is served as it is, and nothing reads maps in production (no error
    // reporting service). `npx vite build --sourcemap` makes them for a local look.
    sourcemap: false,
    rolldownOptions: {
      output: {
        // A dictionary's namespace is named for its language and itself (`ru-console-…`), not
        // `console-…` like the console's code.
        chunkFileNames: (chunk) => {
          const words = dictionaryOf(chunk.facadeModuleId);
          return words === null || words.namespace === null
            ? 'assets/[name]-[hash].js'
            : `assets/${words.language}-${words.namespace}-[hash].js`;
        },
        // Everything the landing needs in one file; then one chunk per flow of screens, holding
        // the screens only (what several flows share becomes chunks of its own).
        codeSplitting: {
          groups: [
            { name: 'first', tags: ['$initial'], priority: 2 },
            {
              name: screenFlow,
              debugName: 'flows',
              test: (id) => screenFlow(id) !== null,
              priority: 1,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  test: {
    root: import.meta.dirname,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/shared/**/*.test.ts', 'tests/app/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/helpers/setup-dom.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          // One database per file; PostgreSQL tests share a server, so files run one after another.
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // deploy/ run as a team runs it: nginx in front of server processes (tests/deploy).
          name: 'deploy',
          include: ['tests/deploy/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
