/**
 * The app's identity, in one place for both electron-builder.config.ts and the running app.
 * electron-builder does not copy `productName` into the packaged package.json, so app.getName() stays
 * "batch-image-studio" (the package name, which also names the data folder): what people read comes
 * from here instead. The app id names the Windows shortcut's AppUserModelID, which notifications need.
 */
export const APP_ID = 'app.batchimagestudio.desktop';
export const PRODUCT_NAME = 'Batch Image Studio';
/** The code-signing certificate's subject on Windows; the updater refuses installers signed by anyone else. */
export const PUBLISHER_NAME = 'Batch Image Studio contributors';
