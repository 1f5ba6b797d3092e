import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../storage/atomic-file';
import { logCaughtUnlessMissing } from '../log/studio-log';

/** Where API keys live. Only the main process holds one; nothing it returns reaches the renderer. */
export interface SecretStore {
  readonly kind: 'os-encrypted' | 'file-0600';
  get(name: string): string | undefined;
  set(name: string, value: string): void;
  delete(name: string): void;
}

/**
 * Browser mode and tests: a JSON file readable by the owner only. Plain text on disk, which
 * Settings says plainly; the desktop app encrypts with the OS keychain instead.
 */
export class FileSecretStore implements SecretStore {
  readonly kind = 'file-0600' as const;
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'secrets.json');
  }

  private read(): Record<string, string> {
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.file, 'utf8'));
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
    } catch (err) {
      // Only the kind of failure: a parser's message would quote the file, keys and all.
      const { code, name } = err as NodeJS.ErrnoException;
      logCaughtUnlessMissing('secrets file read', { code, name });
      return {};
    }
  }

  private write(values: Record<string, string>): void {
    // Created 0600, flushed, then renamed: a key saved is never readable by others nor lost.
    writeFileAtomicSync(this.file, JSON.stringify(values, null, 2), { mode: 0o600 });
    chmodSync(this.file, 0o600);
  }

  get(name: string): string | undefined {
    const value = this.read()[name];
    return typeof value === 'string' ? value : undefined;
  }

  set(name: string, value: string): void {
    this.write({ ...this.read(), [name]: value });
  }

  delete(name: string): void {
    const values = this.read();
    delete values[name];
    this.write(values);
  }
}

const MASK = '••••';
/** Shorter fragments of a base64 form would match too much ordinary text. */
const MIN_ENCODED_CHARS = 8;

/**
 * The forms a key takes when a gateway repeats it: as sent, URL-encoded, JSON-escaped, and
 * inside base64 (as in Basic auth or a token that wraps it). Base64 of the same bytes differs by
 * where they start in the encoded stream, so each of the three alignments contributes the part of
 * its encoding that does not depend on the bytes around the key.
 */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  forms.add(encodeURIComponent(secret));
  forms.add(JSON.stringify(secret).slice(1, -1));
  const bytes = Buffer.from(secret, 'utf8');
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    // The first group mixes in the bytes before the key; a last partial group, the bytes after it.
    const start = offset === 0 ? 0 : 4;
    const end = (offset + bytes.length) % 3 === 0 ? encoded.length : Math.floor(encoded.length / 4) * 4;
    const core = encoded.slice(start, end);
    if (core.length < MIN_ENCODED_CHARS) continue;
    forms.add(core);
    forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...forms].filter((form) => form.length >= 4);
}

/**
 * Replaces every known secret, in each form a gateway may repeat it, so keys never reach a log, a
 * message, an error, a file or the screen. Longer forms go first, so a key that contains another
 * is masked whole.
 */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  const forms = [...new Set(secrets.filter((s): s is string => !!s && s.length >= 4).flatMap(secretForms))];
  forms.sort((a, b) => b.length - a.length);
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(MASK);
  return out;
}
