import type { z } from 'zod';

/**
 * Hostile inputs for the StudioApi, drawn from a seeded random source: near-valid values built from
 * a method's own schema (so calls get past validation into the services), then broken in the ways
 * scripts and testers break them. No vitest here: the fuzz test decides what an answer must be.
 */
export type Random = () => number;

/** Values a field may get in place of its own: what a careless or hostile script sends. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  'NaN',
  'Infinity',
  '-Infinity',
  'undefined',
  'null',
  '1e309',
  '-0',
  '0x1F',
  '__proto__',
  'constructor',
  'prototype',
  '../../etc/passwd',
  '../../../../../../../../etc/shadow',
  '/etc/passwd',
  '/proc/self/environ',
  '/dev/zero',
  'C:\\',
  'C:\\Windows\\System32\\config',
  '\\\\server\\share\\x',
  'file:///etc/passwd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '\u0000',
  'a\u0000b',
  '\u202e\u0007\u001b[31m\b\f\v',
  '\ud800',
  'e\u0301\ufeff\u200b',
  '💥'.repeat(50),
  '漢字かなカナ한글',
  'line\nbreak\r\nand\ttab',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${process.env.HOME}',
  '{{constructor.constructor("return process")()}}',
  'n'.repeat(300),
  'x'.repeat(100_000),
  'é'.repeat(70_000),
];

export const HOSTILE_NUMBERS = [
  -1,
  0,
  0.5,
  -0.5,
  1e308,
  -1e308,
  2 ** 53 + 1,
  4_294_967_296,
  1e-300,
  -(2 ** 31),
];

const pick = <T>(rand: Random, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

function deep(depth: number, asArray: boolean): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
}

/** Any hostile value: a primitive of the wrong kind, a structure where a primitive goes, or deep nesting. */
export function hostileValue(rand: Random): unknown {
  const roll = rand();
  if (roll < 0.45) return pick(rand, HOSTILE_STRINGS);
  if (roll < 0.7) return pick(rand, HOSTILE_NUMBERS);
  if (roll < 0.8) return pick(rand, [null, true, false, [], {}, [null], { '': '' }]);
  // Parsed, not written as a literal: a literal's __proto__ sets the prototype, not a field that is sent.
  if (roll < 0.9)
    return JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
  return deep(1 + Math.floor(rand() * 2000), rand() < 0.5);
}

/** How the fuzz fills fields that name things: the ids that exist, and values a field needs to be valid. */
export interface Known {
  ids: string[];
  /** A string a named field takes when valid: an id, a URL, a time zone, a folder. */
  field(key: string): string | undefined;
}

type Def = { type: string } & Record<string, any>;
const defOf = (schema: z.ZodType): Def => (schema as any)._zod.def as Def;

const checksOf = (schema: z.ZodType): Record<string, any>[] =>
  ((defOf(schema).checks ?? []) as { _zod: { def: Record<string, any> } }[]).map((c) => c._zod.def);

/** Strings of the forms schemas ask for by pattern: a content hash, a day, a run id. */
const FORMED = ['a'.repeat(64), '2024-05-01', 'run-0123456789', 'Europe/Berlin'];

function word(rand: Random): string {
  return `fuzz-${Math.floor(rand() * 36 ** 6)
    .toString(36)
    .padStart(6, '0')}`;
}

/** A value the schema probably accepts, built from its definition (zod 4), with the known ids mixed in. */
export function validish(schema: z.ZodType, rand: Random, known: Known, key = '', depth = 0): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, field] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        const optional = ['optional', 'default'].includes(defOf(field).type);
        if (optional && rand() < 0.5) continue;
        out[k] = validish(field, rand, known, k, depth + 1);
      }
      return out;
    }
    case 'optional':
    case 'default':
    case 'nullable':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return validish(def.innerType, rand, known, key, depth);
    case 'pipe':
      return validish(def.in, rand, known, key, depth);
    case 'lazy':
      return depth > 4 ? null : validish(def.getter(), rand, known, key, depth + 1);
    case 'union':
      return validish(pick(rand, def.options as z.ZodType[]), rand, known, key, depth);
    case 'array': {
      const min = (checksOf(schema).find((c) => c.check === 'min_length')?.minimum as number) ?? 0;
      const count = Math.max(min, Math.floor(rand() * 3));
      return Array.from({ length: count }, () => validish(def.element, rand, known, key, depth + 1));
    }
    case 'record':
      return { [word(rand)]: validish(def.valueType, rand, known, key, depth + 1) };
    case 'tuple':
      return (def.items as z.ZodType[]).map((item) => validish(item, rand, known, key, depth + 1));
    case 'enum':
      return pick(rand, Object.values(def.entries as Record<string, unknown>));
    case 'literal':
      return pick(rand, def.values as unknown[]);
    case 'boolean':
      return rand() < 0.5;
    case 'number': {
      const bound = (name: string) => checksOf(schema).find((c) => c.check === name);
      const low = bound('greater_than');
      const high = bound('less_than');
      const min = low ? (low.value as number) + (low.inclusive ? 0 : 1) : 0;
      const max = high ? (high.value as number) : min + 10;
      return Math.min(max, min + Math.floor(rand() * 5));
    }
    case 'string': {
      const named = known.field(key);
      if (named !== undefined) return named;
      const patterns = checksOf(schema).flatMap((c) => (c.pattern instanceof RegExp ? [c.pattern] : []));
      if (patterns.length > 0) {
        const fits = FORMED.find((text) => patterns.every((p) => p.test(text)));
        if (fits) return fits;
      }
      if (/id$/i.test(key) && known.ids.length > 0 && rand() < 0.7) return pick(rand, known.ids);
      return word(rand);
    }
    case 'null':
      return null;
    default:
      return rand() < 0.5 ? word(rand) : {};
  }
}

/** Breaks a near-valid value: a field dropped, a field added, a value swapped for a hostile one, at any depth. */
export function mutate(value: unknown, rand: Random, depth = 0): unknown {
  if (Array.isArray(value)) {
    if (value.length === 0 || rand() < 0.3) return [...value, hostileValue(rand)];
    const i = Math.floor(rand() * value.length);
    return value.map((v, j) => (j === i ? mutate(v, rand, depth + 1) : v));
  }
  if (value && typeof value === 'object') {
    const out = { ...(value as Record<string, unknown>) };
    const keys = Object.keys(out);
    const roll = rand();
    if (roll < 0.15 && keys.length > 0) delete out[pick(rand, keys)];
    else if (roll < 0.3) {
      // Defined, not assigned: assigning __proto__ would change the prototype instead of adding a field.
      const extra = pick(rand, ['extra', '__proto__', 'constructor', 'x'.repeat(300), '', '\u0000\u202e']);
      Object.defineProperty(out, extra, {
        value: hostileValue(rand),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else if (keys.length > 0) {
      const k = pick(rand, keys);
      out[k] = rand() < 0.5 && depth < 6 ? mutate(out[k], rand, depth + 1) : hostileValue(rand);
    } else out.extra = hostileValue(rand);
    return out;
  }
  // Mostly of the same kind: text stays text and numbers stay numbers, so the call passes its
  // schema and the hostile value reaches the service.
  if (typeof value === 'string' && rand() < 0.7) return pick(rand, HOSTILE_STRINGS);
  if (typeof value === 'number' && rand() < 0.7) return pick(rand, HOSTILE_NUMBERS);
  return hostileValue(rand);
}

/** One request's body as bytes on the wire, with the content type it claims. */
export interface HostileBody {
  kind: string;
  body?: string;
  contentType?: string;
}

const NOT_JSON = [
  '{nope',
  "{'a':1}",
  'undefined',
  '{"a":1}{"b":2}',
  '{"a":',
  '\u0000\u0001',
  'NaN',
  '[1,]',
  '<xml/>',
];

/** A body for a method: mostly its input broken a little, sometimes whatever a script might send. */
export function hostileBody(schema: z.ZodType, rand: Random, known: Known): HostileBody {
  const roll = rand();
  const json = (kind: string, value: unknown): HostileBody => ({
    kind,
    body: JSON.stringify(value),
    contentType: pick(rand, [
      'application/json',
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'image/png',
    ]),
  });
  if (roll < 0.2) return json('valid-ish', validish(schema, rand, known));
  if (roll < 0.7) return json('mutated', mutate(validish(schema, rand, known), rand));
  if (roll < 0.8) return json('wrong type', hostileValue(rand));
  if (roll < 0.87) return { kind: 'not json', body: pick(rand, NOT_JSON), contentType: 'application/json' };
  if (roll < 0.92)
    return {
      kind: 'empty',
      body: pick(rand, ['', '   ', '\n']),
      contentType: pick(rand, ['application/json', '']),
    };
  if (roll < 0.96) {
    const n = pick(rand, [1000, 100_000]);
    return { kind: 'deep json', body: '['.repeat(n) + ']'.repeat(n), contentType: 'application/json' };
  }
  return { kind: 'form', body: 'a=1&b=%00', contentType: 'application/x-www-form-urlencoded' };
}
