import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { describe, expect, it } from 'vitest';
import { seededRandom } from './helpers/seeded-random';
import { KB_LIMITS } from '../services/kb/kb-rows';
import { loadTokenCounter } from '../services/kb/token-count';
import { call, startServices } from './helpers/studio-fixture';

// Tokens are counted a piece at a time, so that a long run with no space costs linear time, not
// quadratic, and counted exactly as the gateway counts them whole, where text has places to cut.

describe('counting the tokens of a knowledge-base row', () => {
  it('counts ordinary text exactly as the tokenizer does whole', async () => {
    const count = await loadTokenCounter();
    const texts = [
      'Soft edges, a muted palette and visible paper grain: our house watercolor style. '.repeat(60),
      '我们的水彩风格：柔和的边缘，低饱和的色调，可见的纸张纹理。请在每张海报上保持一致。'.repeat(40),
      'Mixed 文字 with emoji 🎨🖌️ and numbers 1234567 across   several    spaces\n\nand lines. '.repeat(50),
    ];
    for (const text of texts) expect(count(text)).toBe(countTokens(text));
    // And texts of every kind of place the tokenizer splits at, or does not, in any order.
    const random = seededRandom(27);
    const atoms = [
      'the',
      ' ',
      '  ',
      '\n',
      '\n\n',
      '风格',
      '，',
      '。',
      '：',
      'é',
      '🎨',
      '123',
      '4567',
      "'s",
      '-',
      '...',
      'Paper',
      '\t',
      '"',
      '（',
      'カタカナ',
    ];
    for (let i = 0; i < 300; i++) {
      let text = '';
      for (let n = 100 + Math.floor(random() * 500); n > 0; n--)
        text += atoms[Math.floor(random() * atoms.length)];
      expect(count(text), JSON.stringify(text)).toBe(countTokens(text));
    }
  });

  it('checks a row of 200,000 characters with no space, and splits it into rows that fit', async () => {
    const services = await startServices();
    const q = 'é'.repeat(200_000);
    const [row] = await call(services, 'kb.check', { rows: [{ q, a: 'yes' }], mode: 'qa' });
    expect(row.over).toBe(true);
    expect(row.tokens).toBe(countTokens('é'.repeat(1_000)) * 200);
    expect(row.split.map((r: { q: string }) => r.q).join('')).toBe(q);
    for (const part of row.split) expect(countTokens(part.q)).toBeLessThanOrEqual(KB_LIMITS.qa);
  });
});
