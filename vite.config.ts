import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * One file for the app's build (Vite) and the three test projects (Vitest):
 * unit (src/shared and component tests in jsdom), server (Fastify with app.inject on a fresh
 * database, run once per database by tests/helpers/run-server-tests.ts) and e2e (real Chromium
 * against the built app and the real server).
 */
export default defineConfig({
  plugins: [react()],
  // The design card keeps the top level to package.json, src, i18n, public, tests…: the app's
  // index.html lives with the app.
  root: path.resolve(import.meta.dirname, 'src/app'),
  publicDir: path.resolve(import.meta.dirname, 'public'),
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    target: 'es2020',
    sourcemap: true,
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
    ],
  },
});
