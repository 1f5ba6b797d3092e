import type { Plugin } from 'vite';

interface Chunk {
  type: 'chunk' | 'asset';
  fileName: string;
  facadeModuleId?: string | null;
  imports?: string[];
  viteMetadata?: { importedCss: Set<string> };
}

/**
 * The window opens on Compose (the address carries no screen), whose chunk main.tsx asks for only
 * once its own script has arrived and run. Named in the page, it and what it imports are fetched
 * with the page's script in one go: browser mode starts its services once the page's files are
 * sent (src-main/web/services-start.ts), and a screen's chunk asked for later waited behind them.
 */
export function firstScreenPreload(screenFile: string): Plugin {
  return {
    name: 'studio-first-screen-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = (ctx.bundle ?? {}) as Record<string, Chunk>;
        const screen = Object.values(bundle).find(
          (c) => c.type === 'chunk' && c.facadeModuleId?.endsWith(screenFile),
        );
        if (!screen) return html;
        const scripts = new Set<string>();
        const styles = new Set<string>();
        const visit = (chunk: Chunk | undefined) => {
          if (!chunk || scripts.has(chunk.fileName)) return;
          scripts.add(chunk.fileName);
          chunk.viteMetadata?.importedCss.forEach((css) => styles.add(css));
          chunk.imports?.forEach((name) => visit(bundle[name]));
        };
        visit(screen);
        const links = [
          ...[...scripts]
            .filter((f) => !html.includes(`/${f}"`))
            .map((f) => `<link rel="modulepreload" crossorigin href="./${f}">`),
          ...[...styles]
            .filter((f) => !html.includes(`/${f}"`))
            .map((f) => `<link rel="stylesheet" crossorigin href="./${f}">`),
        ];
        return html.replace('  </head>', `    ${links.join('\n    ')}\n  </head>`);
      },
    },
  };
}
