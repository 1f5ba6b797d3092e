import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en';
import { zhCN } from '../i18n/zh-CN';
import { explanationKey, nextStep, type StudioErrorView } from '../studio-error';

const SPEC_DIR = join(import.meta.dirname, '..', '..', '..', 'shared', 'spec');
const errorsEn = en.errors as unknown as Record<string, string>;
const errorsZh = zhCN.errors as unknown as Record<string, string>;
const known = (key: string) => typeof errorsEn[key.replace(/^errors\./, '')] === 'string';
const text = (lang: Record<string, string>, key: string) => lang[key.replace(/^errors\./, '')];

/** Every (status, code) the spec's error table and the gateway notes name. */
function specPairs(): { status: number; code: string }[] {
  const pairs = new Map<string, { status: number; code: string }>();
  const api = readFileSync(join(SPEC_DIR, 'batch-image-api.md'), 'utf8');
  for (const m of api.matchAll(/^\|\s*(BATCH_IMAGE_[A-Z_]+)\s*\|\s*(\d{3})\s*\|/gm))
    pairs.set(`${m[1]}_${m[2]}`, { code: m[1]!, status: Number(m[2]) });
  const notes = readFileSync(join(SPEC_DIR, 'gateway-notes.md'), 'utf8');
  for (const m of notes.matchAll(/(\d{3}) `(BATCH_IMAGE_[A-Z_]+)`/g))
    pairs.set(`${m[2]}_${m[1]}`, { code: m[2]!, status: Number(m[1]) });
  return [...pairs.values()];
}

function gatewayError(code: string, httpStatus?: number, source: StudioErrorView['source'] = 'gateway') {
  return { code, httpStatus, source, retryable: false };
}

/** Errors without the API's JSON body: a proxy's HTML page, a reset, a timeout. */
const BARE = [
  gatewayError('HTTP_500', 500),
  gatewayError('HTTP_502', 502),
  gatewayError('HTTP_503', 503),
  gatewayError('HTTP_504', 504),
  gatewayError('HTTP_429', 429),
  gatewayError('NETWORK_ERROR', undefined, 'network'),
  gatewayError('NETWORK_TIMEOUT', undefined, 'network'),
];

describe('error explanations by code and status', () => {
  it.skipIf(!existsSync(SPEC_DIR))(
    'explain every code and status of the spec and the notes, with what happens next, in both languages',
    () => {
      const pairs = specPairs();
      expect(pairs.length).toBeGreaterThan(25);
      for (const error of [...pairs.map((p) => gatewayError(p.code, p.status)), ...BARE]) {
        const key = explanationKey(error, known);
        const what = `${error.code} ${error.httpStatus ?? ''}`;
        expect(key, what).not.toMatch(/errors\.unknown/);
        expect(text(errorsEn, key), what).toBeTruthy();
        expect(text(errorsZh, key), what).toMatch(/[\u4e00-\u9fff]/);
        const next = `next${nextStep(error)[0]!.toUpperCase()}${nextStep(error).slice(1)}`;
        expect(errorsEn[next], `${what}: ${next}`).toBeTruthy();
        expect(errorsZh[next], `${what}: ${next}`).toMatch(/[\u4e00-\u9fff]/);
      }
    },
  );

  it('tells 503 BATCH_IMAGE_NOT_READY (runtime not ready) from 409 (results not ready)', () => {
    const runtime = explanationKey(gatewayError('BATCH_IMAGE_NOT_READY', 503), known);
    const results = explanationKey(gatewayError('BATCH_IMAGE_NOT_READY', 409), known);
    expect(runtime).not.toBe(results);
    expect(text(errorsEn, runtime)).toMatch(/not ready \(its runtime/);
    expect(text(errorsEn, results)).toMatch(/results are not ready/);
    expect(nextStep(gatewayError('BATCH_IMAGE_NOT_READY', 503))).toBe('nothing');
    expect(nextStep(gatewayError('BATCH_IMAGE_NOT_READY', 409))).toBe('waits');
  });

  it('says what the studio does next: retries what time can fix, nothing after a definite refusal', () => {
    expect(nextStep(gatewayError('HTTP_502', 502))).toBe('retries');
    expect(nextStep(gatewayError('NETWORK_ERROR', undefined, 'network'))).toBe('retries');
    expect(nextStep(gatewayError('BATCH_IMAGE_DOWNLOAD_LIMITED', 429))).toBe('waits');
    expect(nextStep(gatewayError('BATCH_IMAGE_DOWNLOAD_FAILED', 500))).toBe('retries');
    expect(nextStep(gatewayError('BATCH_IMAGE_INSUFFICIENT_BALANCE', 402))).toBe('nothing');
    expect(nextStep(gatewayError('BATCH_IMAGE_BILLING_HOLD_FAILED', 502))).toBe('nothing');
  });

  it('falls back to the code alone, then to the status, for a status the table does not name', () => {
    expect(explanationKey(gatewayError('BATCH_IMAGE_OUTPUT_DELETED', 410), known)).toBe(
      'errors.BATCH_IMAGE_OUTPUT_DELETED',
    );
    expect(explanationKey(gatewayError('SOMETHING_NEW', 503), known)).toBe('errors.HTTP_503');
  });
});

/**
 * What a user can do, as the explanations say it: an instruction (check, choose, send again, ask…),
 * or that the studio carries on by itself (waits, retries, downloads one by one).
 */
const USER_STEP_EN =
  /\b(you can|try again|send|choose|check|ask|fix|press|use|open|top up|split|wait|waits|rephrase|submit|shorten|remove|give|nothing to do|tries again|downloaded one by one|slows down)\b/i;
const USER_STEP_ZH = /请|可以|点击|无需|换用|重新|稍后|会等待|自动|逐张|放慢/;

describe('every explanation says what the user can do', () => {
  // The page shows the explanation, then what the studio does next (nextRetries/Waits/Nothing):
  // the explanation itself must add what the user can do, as a sentence of its own.
  const bare = [
    ...BARE,
    // The gateway layer's own codes, and the studio's checks of a download.
    gatewayError('NOT_FOUND', 404),
    gatewayError('STUDIO_ZIP_REJECTED', undefined, 'studio'),
  ];
  const errors = [
    ...(existsSync(SPEC_DIR) ? specPairs().map((p) => gatewayError(p.code, p.status)) : []),
    ...bare,
  ];

  it.each(errors.map((e) => ({ ...e, name: `${e.code} ${e.httpStatus ?? ''}` })))('$name', (error) => {
    const key = explanationKey(error, known);
    expect(text(errorsEn, key), key).toMatch(USER_STEP_EN);
    expect(text(errorsZh, key), key).toMatch(USER_STEP_ZH);
  });

  it('says a studio check of a download is followed by the item-by-item route and later tries', () => {
    expect(errorsEn.STUDIO_ZIP_REJECTED).toMatch(/one by one/);
    expect(errorsZh.STUDIO_ZIP_REJECTED).toMatch(/逐张/);
  });

  it('says what the studio really does after an idempotency conflict: nothing by itself, a new key on the next Submit', () => {
    const conflict = gatewayError('BATCH_IMAGE_IDEMPOTENCY_CONFLICT', 409);
    expect(nextStep(conflict)).toBe('nothing');
    const key = explanationKey(conflict, known);
    expect(text(errorsEn, key)).not.toMatch(/will use a new key/);
    expect(text(errorsEn, key)).toMatch(/Submit again/);
    expect(text(errorsZh, key)).toMatch(/重新提交/);
  });
});
