// The architecture check electron-builder runs after packing (build/native-arch.mjs): the header
// reader against the real native binaries installed here and against crafted Mach-O, PE and ELF
// headers, and the hook against an unpacked app folder holding a binary for the wrong machine.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import afterPack, { binaryArch, missingPrebuilds, readBinaryArch } from '../native-arch.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'studio-native-arch-'));
  dirs.push(dir);
  return dir;
}

/** The packages whose binaries the studio ships, as npm installed them on this Linux x64 machine. */
const REAL_BINARIES = [
  'node_modules/@img/sharp-linux-x64/lib/sharp-linux-x64.node',
  'node_modules/@napi-rs/canvas-linux-x64-gnu/skia.linux-x64-gnu.node',
  'node_modules/@libsql/linux-x64-gnu/index.node',
];

function elf(machine: number): Buffer {
  const b = Buffer.alloc(64);
  b.write('\x7fELF', 0, 'latin1');
  b[4] = 2; // 64-bit
  b[5] = 1; // little-endian
  b.writeUInt16LE(machine, 18);
  return b;
}

function machO(cpu: number): Buffer {
  const b = Buffer.alloc(32);
  b.writeUInt32LE(0xfeedfacf, 0);
  b.writeUInt32LE(cpu, 4);
  return b;
}

function fatMachO(cpus: number[]): Buffer {
  const b = Buffer.alloc(8 + cpus.length * 20);
  b.writeUInt32BE(0xcafebabe, 0);
  b.writeUInt32BE(cpus.length, 4);
  cpus.forEach((cpu, i) => b.writeUInt32BE(cpu, 8 + i * 20));
  return b;
}

function pe(machine: number): Buffer {
  const b = Buffer.alloc(0x100);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(0x80, 0x3c);
  b.write('PE\0\0', 0x80, 'latin1');
  b.writeUInt16LE(machine, 0x84);
  return b;
}

describe('the native binary header reader', () => {
  it.skipIf(process.platform !== 'linux' || process.arch !== 'x64')(
    'reads the installed sharp, canvas and libsql binaries as ELF x64',
    async () => {
      for (const file of REAL_BINARIES) {
        expect(await readBinaryArch(join(root, file)), file).toEqual({ format: 'elf', archs: ['x64'] });
      }
    },
  );

  it('reads Mach-O, universal Mach-O, PE and ELF headers for x64 and arm64', () => {
    expect(binaryArch(machO(0x01000007))).toEqual({ format: 'mach-o', archs: ['x64'] });
    expect(binaryArch(machO(0x0100000c))).toEqual({ format: 'mach-o', archs: ['arm64'] });
    expect(binaryArch(fatMachO([0x01000007, 0x0100000c]))).toEqual({
      format: 'mach-o',
      archs: ['x64', 'arm64'],
    });
    expect(binaryArch(pe(0x8664))).toEqual({ format: 'pe', archs: ['x64'] });
    expect(binaryArch(pe(0xaa64))).toEqual({ format: 'pe', archs: ['arm64'] });
    expect(binaryArch(elf(62))).toEqual({ format: 'elf', archs: ['x64'] });
    expect(binaryArch(elf(183))).toEqual({ format: 'elf', archs: ['arm64'] });
  });

  it('reads a PE header that starts beyond the first bytes read', async () => {
    const file = join(tempDir(), 'far.node');
    const b = Buffer.alloc(0x2000);
    b.write('MZ', 0, 'latin1');
    b.writeUInt32LE(0x1800, 0x3c);
    b.write('PE\0\0', 0x1800, 'latin1');
    b.writeUInt16LE(0xaa64, 0x1804);
    writeFileSync(file, b);
    expect(await readBinaryArch(file)).toEqual({ format: 'pe', archs: ['arm64'] });
  });

  it('answers undefined for what is not a binary', () => {
    expect(binaryArch(Buffer.from('module.exports = {};\n'))).toBeUndefined();
    expect(binaryArch(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('the afterPack check', () => {
  /** An unpacked Linux app folder as electron-builder lays it out, with sharp's binary in it. */
  function unpackedApp(): { appOutDir: string; unpacked: string } {
    const appOutDir = tempDir();
    const unpacked = join(appOutDir, 'resources', 'app.asar.unpacked');
    const sharp = join(unpacked, 'node_modules/@img/sharp-linux-x64/lib');
    mkdirSync(sharp, { recursive: true });
    writeFileSync(join(sharp, 'sharp-linux-x64.node'), elf(62));
    return { appOutDir, unpacked };
  }

  it('lets a package whose binaries fit its architecture through', async () => {
    const { appOutDir } = unpackedApp();
    await expect(afterPack({ appOutDir, arch: 1, electronPlatformName: 'linux' })).resolves.toBeUndefined();
  });

  it.skipIf(process.platform !== 'linux' || process.arch !== 'x64')(
    'lets the real installed binaries through for linux x64',
    async () => {
      const { appOutDir, unpacked } = unpackedApp();
      for (const file of REAL_BINARIES) {
        mkdirSync(dirname(join(unpacked, file)), { recursive: true });
        copyFileSync(join(root, file), join(unpacked, file));
      }
      await expect(
        afterPack({ appOutDir, arch: 1, electronPlatformName: 'linux', packager: { projectDir: root } }),
      ).resolves.toBeUndefined();
    },
  );

  it('stops an arm64 package holding x64 binaries, naming the file and the packages to install', async () => {
    const { appOutDir } = unpackedApp();
    const run = afterPack({
      appOutDir,
      arch: 3,
      electronPlatformName: 'linux',
      packager: { projectDir: root },
    });
    await expect(run).rejects.toThrow(
      /node_modules\/@img\/sharp-linux-x64\/lib\/sharp-linux-x64\.node \(elf x64, from @img\/sharp-linux-x64\)/,
    );
    await expect(run).rejects.toThrow(
      /npm install --no-save --os=linux --cpu=arm64 .*@img\/sharp-linux-arm64@/,
    );
  });

  it('stops a Mac package holding Linux binaries', async () => {
    const { appOutDir } = unpackedApp();
    await expect(
      afterPack({ appOutDir, arch: 1, electronPlatformName: 'darwin', packager: { projectDir: root } }),
    ).rejects.toThrow(/darwin x64 package would carry native binaries built for another system/);
  });

  it('names, from the lock file, the Mac x64 prebuilds this machine lacks', () => {
    const missing = missingPrebuilds(root, 'darwin', 'x64');
    for (const name of ['@img/sharp-darwin-x64', '@img/sharp-libvips-darwin-x64', '@libsql/darwin-x64']) {
      expect(
        missing.some((m) => m.startsWith(`${name}@`)),
        name,
      ).toBe(true);
    }
    expect(missing.filter((m) => /arm64|linux|win32/.test(m))).toEqual([]);
  });
});
