// The installer size limits, in one place: the packaging check (build/package-check/) and
// `npm run release` (build/release.mjs) both fail a build past them. MB are 10^6 bytes, as the
// file managers and download pages people read show them.

/** The app's own files in an installed copy: resources/ (app.asar, its unpacked natives, app-update.yml), not Electron. */
export const APP_FILES_LIMIT_MB = 50;

/** Each installer a user downloads (AppImage, deb, NSIS exe, dmg, zip). */
export const INSTALLER_LIMIT_MB = 100;

export const MB = 1_000_000;
