export function findElectronBinary(): string | undefined;
