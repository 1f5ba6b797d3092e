import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { CONTENT_SECURITY_POLICY } from './src-main/web/web-host';
import { IMAGE_SCHEME } from './src-shared/image-paths';
import { firstScreenPreload } from './build/first-screen-preload';

/**
 * The built page carries the strict CSP the browser-mode server also sends as a header (minus
 * frame-ancestors, which only a header can carry), so the desktop window has it too. The desktop
 * loads images from its own studio-image: scheme; browser mode's header still allows only 'self'
 * (a page under both policies gets the stricter of the two).
 */
function contentSecurityPolicy(): Plugin {
  const policy = CONTENT_SECURITY_POLICY.split('; ')
    .filter((d) => !d.startsWith('frame-ancestors'))
    .map((d) => (d.startsWith('img-src ') ? `${d} ${IMAGE_SCHEME}:` : d))
    .join('; ');
  return {
    name: 'studio-csp',
    apply: 'build',
    transformIndexHtml: (html) =>
      html.replace('<head>', `<head>\n    <meta http-equiv="Content-Security-Policy" content="${policy}" />`),
  };
}

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve('src-main/electron/main.ts'),
          web: resolve('src-main/web/cli.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve('src-preload/index.ts') },
        // A sandboxed preload must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src-renderer',
    plugins: [react(), contentSecurityPolicy(), firstScreenPreload('src-renderer/compose/ComposeScreen.tsx')],
    build: {
      outDir: 'out/renderer',
      // electron-vite leaves the page unminified; minifying it more than halves what the window loads.
      minify: true,
      rollupOptions: { input: resolve('src-renderer/index.html') },
    },
  },
});
