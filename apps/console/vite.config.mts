import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const at = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The console as static files: served by the gateway under /console/, or
 * from any static host (the API origin comes from config.json at run time).
 * The contracts' browser entry is compiled from source, as a frontend team's
 * bundler would take the package.
 */
export default defineConfig({
  root: at('.'),
  base: './',
  resolve: {
    alias: {
      '@genhub/contracts': at('../../libs/shared/contracts/src/index.ts'),
      '@genhub/errors': at('../../libs/shared/errors/src/index.ts'),
    },
  },
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: at('../../dist/console'),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    rollupOptions: {
      // TanStack Query marks its hooks "use client" for server-rendering bundlers; a static
      // build has no server components, so the directive is dropped on purpose.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
