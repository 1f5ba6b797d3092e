import type { Configuration } from 'electron-builder';
import { existsSync } from 'node:fs';
import checkNativeArch from './build/native-arch.mjs';
import { APP_ID, PRODUCT_NAME, PUBLISHER_NAME } from './src-main/electron/product';

// Installers for Batch Image Studio: `npm run dist` builds the host platform's. The name, version,
// description and author come from package.json. build/package-check/ verifies the result offline.

/** The native modules: their .node binaries and shared libraries cannot be loaded from inside an asar. */
const NATIVE_MODULES = ['sharp', '@img', 'libsql', '@libsql', '@node-rs'];

/** The release's notes (`[en]` and `[zh-CN]` parts), copied into the feed's latest*.yml when present. */
const RELEASE_NOTES = 'build/release-notes.md';

/**
 * Who the Windows installers are signed by: the code-signing certificate's subject, which
 * STUDIO_WINDOWS_PUBLISHER names when it is not PUBLISHER_NAME. signtool's options and the update
 * feed both take it from here: an updater expecting another publisher than the installer was
 * signed as refuses every update.
 */
function windowsPublisher(env: NodeJS.ProcessEnv): string {
  return env.STUDIO_WINDOWS_PUBLISHER?.trim() || PUBLISHER_NAME;
}

/**
 * Where installed copies look for updates: a generic feed (any static host) set at build time by
 * STUDIO_UPDATE_URL. Without it the build has no app-update.yml and the studio says it checks
 * nothing. publisherName rides in app-update.yml so that Windows checks each downloaded installer
 * is signed by us (verifyUpdateCodeSignature).
 */
function updateFeed(env: NodeJS.ProcessEnv): Configuration['publish'] {
  const url = env.STUDIO_UPDATE_URL?.trim();
  if (!url) return null;
  return { provider: 'generic', url, publisherName: [windowsPublisher(env)] };
}

/** The configuration for an environment: `npm run dist` and `npm run release` read process.env. */
export function builderConfig(env: NodeJS.ProcessEnv = process.env): Configuration {
  return {
    ...config,
    win: { ...config.win, signtoolOptions: { publisherName: [windowsPublisher(env)] } },
    publish: updateFeed(env),
  };
}

const config: Configuration = {
  appId: APP_ID,
  productName: PRODUCT_NAME,
  copyright: 'Copyright © 2026 Batch Image Studio contributors',
  directories: { output: 'dist', buildResources: 'build' },
  // Vite bundles the renderer and everything it imports, so only the built app and package.json ship;
  // electron-builder adds the production dependencies (main's runtime packages) on its own.
  files: [
    'out/**',
    'package.json',
    '!**/*.map',
    // Contact sheets embed Noto Sans SC's regular weight from its WOFF files; the package's other
    // eight weights and its WOFF2 copies (for web pages) would add 70 MB nobody uses.
    '!node_modules/@fontsource/noto-sans-sc/files/*-{100,200,300,500,600,700,800,900}-normal.*',
    '!node_modules/@fontsource/noto-sans-sc/files/*.woff2',
    // What the installed studio never loads (the packaging check prints what is left, by package):
    // libsql's musl build (Alpine) beside the glibc one, as every target here is glibc;
    '!node_modules/@libsql/*-musl{,/**}',
    // pdfkit's builds for browsers and bundlers (main loads js/pdfkit.node.mjs and its data), and
    // the copy of yarn (3.8 MB) its package carries;
    '!node_modules/pdfkit/js/pdfkit.{browser,standalone,old,browser.old}.*',
    '!node_modules/pdfkit/.yarn{,/**}',
    // fontkit's browser builds (Node loads dist/module.mjs or dist/main.cjs);
    '!node_modules/fontkit/dist/browser*',
    // brotli's compressor: fontkit only decompresses (WOFF2), with brotli/dec.
    '!node_modules/brotli/build{,/**}',
  ],
  asar: true,
  // Beta builds (1.2.0-beta.1) write beta*.yml; releases write latest*.yml and beta*.yml, so the beta
  // channel in Settings also gets each release.
  generateUpdatesFilesForAllChannels: true,
  ...(existsSync(RELEASE_NOTES) ? { releaseInfo: { releaseNotesFile: RELEASE_NOTES } } : {}),
  asarUnpack: NATIVE_MODULES.map((name) => `node_modules/${name}/**`),
  // Every native dependency ships N-API prebuilds for each platform; nothing to compile.
  npmRebuild: false,
  buildDependenciesFromSource: false,
  // npm installs only this machine's prebuilds: a package for another architecture (the second Mac
  // dmg) would carry binaries its machine cannot load. This stops such a build and says what to install.
  afterPack: checkNativeArch,
  electronFuses: {
    runAsNode: false,
    enableCookieEncryption: true,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    // Flipping a fuse breaks the ad-hoc signature an unsigned arm64 Mac app needs to launch at all.
    resetAdHocDarwinSignature: true,
  },
  artifactName: 'batch-image-studio-${version}-${arch}.${ext}',
  linux: {
    target: ['AppImage', 'deb'],
    // A folder of <n>x<n>.png made by build/icons.mjs from build/icon.svg.
    icon: 'build/icons/png',
    category: 'Graphics',
    synopsis: 'Generate and review images in bulk through an AI gateway',
    // The menu entry reads the product name, and the window it opens (whose class main sets to the
    // product name once it starts) is grouped under it rather than under the package name.
    desktop: { entry: { Name: PRODUCT_NAME, StartupWMClass: PRODUCT_NAME } },
  },
  // No version in the AppImage's name: the updater replaces the file in place, so a launcher or
  // desktop shortcut pointing at it keeps working after an update.
  appImage: {
    artifactName: 'batch-image-studio-${arch}.${ext}',
  },
  deb: {
    artifactName: 'batch-image-studio_${version}_${arch}.${ext}',
  },
  win: {
    target: [{ target: 'nsis', arch: ['x64'] }],
    icon: 'build/icons/icon.ico',
    // Each downloaded update must carry our code signature (the publisher: windowsPublisher, above).
    verifyUpdateCodeSignature: true,
  },
  nsis: {
    oneClick: false,
    allowToChangeInstallationDirectory: true,
    artifactName: 'batch-image-studio-Setup-${version}.${ext}',
  },
  mac: {
    // The zip is what Squirrel.Mac updates from; the dmg is for first installs.
    target: [
      { target: 'dmg', arch: ['arm64', 'x64'] },
      { target: 'zip', arch: ['arm64', 'x64'] },
    ],
    icon: 'build/icons/icon.icns',
    category: 'public.app-category.graphics-design',
  },
};

export default builderConfig();
