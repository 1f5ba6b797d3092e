// The architecture a native binary was built for, read from its header, and electron-builder's
// afterPack hook that checks every unpacked native binary against the architecture being packaged.
//
// npmRebuild is off: sharp, libsql and @node-rs/crc32 ship prebuilt binaries as per-platform
// optional packages, and npm installs only the host's. A dmg for the other Mac architecture would
// then carry binaries its Mac cannot load, and the app would fail at its first image. The hook
// stops such a build and names the packages to install for the target.
import { existsSync, readFileSync } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** electron-builder's Arch enum (builder-util), by value. */
const BUILDER_ARCHS = { 0: 'ia32', 1: 'x64', 2: 'armv7l', 3: 'arm64', 4: 'universal' };

const FORMAT_OF_PLATFORM = { darwin: 'mach-o', mas: 'mach-o', win32: 'pe', linux: 'elf' };

const ELF_MACHINES = { 3: 'ia32', 40: 'armv7l', 62: 'x64', 183: 'arm64' };
const MACHO_CPUS = { 0x7: 'ia32', 0xc: 'armv7l', 0x01000007: 'x64', 0x0100000c: 'arm64' };
const PE_MACHINES = { 0x14c: 'ia32', 0x1c4: 'armv7l', 0x8664: 'x64', 0xaa64: 'arm64' };

const unknown = (code) => `unknown (${code})`;

/**
 * The format and architectures of a binary from its first bytes (a fat Mach-O holds several), or
 * undefined when it is none of ELF, Mach-O or PE. `peHeader` reads the PE header further in.
 */
export function binaryArch(head, peHeader) {
  if (head.length >= 20 && head[0] === 0x7f && head.toString('latin1', 1, 4) === 'ELF') {
    // e_machine, in the byte order EI_DATA names (1: little-endian, 2: big-endian).
    const machine = head[5] === 2 ? head.readUInt16BE(18) : head.readUInt16LE(18);
    return { format: 'elf', archs: [ELF_MACHINES[machine] ?? unknown(machine)] };
  }
  if (head.length >= 8) {
    const magic = head.readUInt32LE(0);
    if (magic === 0xfeedfacf || magic === 0xfeedface) {
      const cpu = head.readUInt32LE(4);
      return { format: 'mach-o', archs: [MACHO_CPUS[cpu] ?? unknown(cpu)] };
    }
    const fat = head.readUInt32BE(0);
    if (fat === 0xcafebabe || fat === 0xcafebabf) {
      // Universal binary: big-endian headers, 20 bytes per architecture (32 for the 64-bit form).
      const count = head.readUInt32BE(4);
      const size = fat === 0xcafebabe ? 20 : 32;
      const archs = [];
      for (let i = 0; i < count && 8 + i * size + 4 <= head.length; i++) {
        const cpu = head.readUInt32BE(8 + i * size);
        archs.push(MACHO_CPUS[cpu] ?? unknown(cpu));
      }
      return { format: 'mach-o', archs };
    }
  }
  if (head.length >= 0x40 && head.toString('latin1', 0, 2) === 'MZ') {
    const offset = head.readUInt32LE(0x3c);
    const pe = peHeader?.(offset) ?? head.subarray(offset, offset + 6);
    if (pe.length < 6 || pe.toString('latin1', 0, 4) !== 'PE\0\0') return undefined;
    const machine = pe.readUInt16LE(4);
    return { format: 'pe', archs: [PE_MACHINES[machine] ?? unknown(machine)] };
  }
  return undefined;
}

/** binaryArch of a file, reading only its headers. */
export async function readBinaryArch(file) {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    let peHeader;
    const headBytes = head.subarray(0, bytesRead);
    if (bytesRead >= 0x40 && headBytes.toString('latin1', 0, 2) === 'MZ') {
      const offset = headBytes.readUInt32LE(0x3c);
      const pe = Buffer.alloc(6);
      const read = await handle.read(pe, 0, 6, offset);
      peHeader = () => pe.subarray(0, read.bytesRead);
    }
    return binaryArch(headBytes, peHeader);
  } finally {
    await handle.close();
  }
}

/** Native addons and the shared libraries they load (sharp's libvips). */
function isNativeBinary(name) {
  return /\.(node|dylib|dll)$/.test(name) || /\.so(\.\d+)*$/.test(name);
}

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

/** The npm package a file under node_modules belongs to ('@img/sharp-darwin-arm64'). */
export function packageOf(file) {
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length) return undefined;
  return parts[at + 1].startsWith('@') ? `${parts[at + 1]}/${parts[at + 2]}` : parts[at + 1];
}

/**
 * Every native binary under `dir` (an app's unpacked folder) that is not for `platform`/`arch`:
 * `{ file, package, found }`, with `found` like 'mach-o arm64'. Empty when all fit.
 */
export async function mismatchedBinaries(dir, platform, arch) {
  const format = FORMAT_OF_PLATFORM[platform];
  const wanted = arch === 'universal' ? ['x64', 'arm64'] : [arch];
  const problems = [];
  for await (const file of walk(dir)) {
    if (!isNativeBinary(file)) continue;
    const found = await readBinaryArch(file);
    // Not a binary at all (a .so.txt licence, a stub): nothing that could fail to load.
    if (!found) continue;
    const fits = found.format === format && wanted.every((a) => found.archs.includes(a));
    if (!fits) {
      problems.push({
        file: relative(dir, file).split(sep).join('/'),
        package: packageOf(relative(dir, file)),
        found: `${found.format} ${found.archs.join('+')}`,
      });
    }
  }
  return problems;
}

/**
 * The prebuilt packages package-lock.json holds for `platform`/`arch` that node_modules lacks, as
 * `name@version`: the ones to install before packaging for that target.
 */
export function missingPrebuilds(root, platform, arch) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const missing = [];
  for (const [key, entry] of Object.entries(lock.packages ?? {})) {
    if (!key.startsWith('node_modules/') || entry.dev || !entry.optional) continue;
    if (!entry.os?.includes(platform) || !entry.cpu?.includes(arch)) continue;
    // Electron's Linux builds use glibc: musl prebuilds are for other systems.
    if (entry.libc && !entry.libc.includes('glibc')) continue;
    if (existsSync(join(root, key, 'package.json'))) continue;
    missing.push(`${key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${entry.version}`);
  }
  return missing.sort();
}

/** The build-stopping explanation: which binaries are wrong, and what to install. */
export function mismatchMessage({ problems, platform, arch, missing }) {
  const os = platform === 'mas' ? 'darwin' : platform;
  const lines = [
    `The ${os} ${arch} package would carry native binaries built for another system:`,
    ...problems.map((p) => `  ${p.file} (${p.found}, from ${p.package ?? 'an unknown package'})`),
    npmRebuildNote,
  ];
  if (missing.length) {
    lines.push(
      `Install the ${os} ${arch} prebuilt packages, then package this architecture on its own:`,
      `  npm install --no-save --os=${os} --cpu=${arch} ${missing.join(' ')}`,
      `(\`npm ci\` afterwards brings back this machine's own packages.)`,
    );
  } else {
    lines.push(
      `Install the ${os} ${arch} builds of the packages named above, or package on a ${os} ${arch} machine.`,
    );
  }
  return lines.join('\n');
}

const npmRebuildNote =
  'npm installs only this machine’s prebuilt binaries, and electron-builder does not rebuild them (npmRebuild is off).';

/** The app.asar.unpacked folders under a packaged app's output folder (one, in practice). */
async function unpackedFolders(dir) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    if (entry.name === 'app.asar.unpacked') found.push(join(dir, entry.name));
    else found.push(...(await unpackedFolders(join(dir, entry.name))));
  }
  return found;
}

/** electron-builder's afterPack hook (electron-builder.config.ts). */
export default async function afterPack(context) {
  const platform = context.electronPlatformName;
  const arch = BUILDER_ARCHS[context.arch] ?? String(context.arch);
  const problems = [];
  // Only the app's own unpacked modules: Electron's files are Electron's business.
  for (const unpacked of await unpackedFolders(context.appOutDir)) {
    problems.push(...(await mismatchedBinaries(unpacked, platform, arch)));
  }
  if (problems.length === 0) return;
  const root = context.packager?.projectDir ?? process.cwd();
  const os = platform === 'mas' ? 'darwin' : platform;
  const missing = arch === 'universal' ? [] : missingPrebuilds(root, os, arch);
  throw new Error(mismatchMessage({ problems, platform, arch, missing }));
}
