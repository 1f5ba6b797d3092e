export interface BinaryArch {
  format: 'elf' | 'mach-o' | 'pe';
  archs: string[];
}
export interface ArchProblem {
  file: string;
  package: string | undefined;
  found: string;
}
export function binaryArch(head: Buffer, peHeader?: (offset: number) => Buffer): BinaryArch | undefined;
export function readBinaryArch(file: string): Promise<BinaryArch | undefined>;
export function packageOf(file: string): string | undefined;
export function mismatchedBinaries(dir: string, platform: string, arch: string): Promise<ArchProblem[]>;
export function missingPrebuilds(root: string, platform: string, arch: string): string[];
export function mismatchMessage(options: {
  problems: ArchProblem[];
  platform: string;
  arch: string;
  missing: string[];
}): string;
export default function afterPack(context: {
  appOutDir: string;
  arch: number;
  electronPlatformName: string;
  packager?: { projectDir?: string };
}): Promise<void>;
