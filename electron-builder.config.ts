import type { Configuration } from 'electron-builder';
import checkNativeArch from './build/native-arch.mjs';
import { APP_ID, PRODUCT_NAME } from './src-main/electron/product';

// Installers for Batch Image Studio: `npm run dist` builds the host platform's. The name, version,
// description and author come from package.json. build/package-check/ verifies the result offline.

/** The native modules: their .node binaries and shared libraries cannot be loaded from inside an asar. */
const NATIVE_MODULES = ['sharp', '@img', '@napi-rs', 'libsql', '@libsql'];

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
  ],
  asar: true,
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
  deb: {
    artifactName: 'batch-image-studio_${version}_${arch}.${ext}',
  },
  win: {
    target: [{ target: 'nsis', arch: ['x64'] }],
    icon: 'build/icons/icon.ico',
  },
  nsis: {
    oneClick: false,
    allowToChangeInstallationDirectory: true,
    artifactName: 'batch-image-studio-Setup-${version}.${ext}',
  },
  mac: {
    target: [{ target: 'dmg', arch: ['arm64', 'x64'] }],
    icon: 'build/icons/icon.icns',
    category: 'public.app-category.graphics-design',
  },
};

export default config;
