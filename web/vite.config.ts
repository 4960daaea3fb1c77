import { defineConfig } from 'vite';

// JSX goes through Vite's own esbuild transform: no Babel toolchain to install for a build.
export default defineConfig({
  esbuild: { jsx: 'automatic' },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      // Libraries mark React Server Components with "use client"; this app has none, so the notice is noise.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
