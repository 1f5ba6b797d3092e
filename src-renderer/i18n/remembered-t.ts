import type { i18n as I18n, TFunction } from 'i18next';

/**
 * Texts kept before the whole memory is dropped: the window's words in one language, with the
 * counts and names that went into them, are a few thousand at most.
 */
const LIMIT = 10_000;

/**
 * Every `t` the window's components get (react-i18next asks `getFixedT`) remembers the texts it
 * made, by language, key and options, until the language or the messages change.
 *
 * Why: i18next makes each text anew, copying its whole options object and resolving the key
 * through namespaces, plurals and interpolation: 20–50 µs a call. A search's answer at a million
 * images draws the gallery's cells, the count, the filters and the toolbar again in one go, and a
 * CPU profile of that drawing found a third of it in `t`, for the same few dozen texts every time.
 *
 * Only calls whose options are absent, a default text, or plain strings, numbers and booleans are
 * remembered; anything else (objects, arrays, `returnObjects`) is made anew, as before.
 */
export function rememberTranslations(i18n: I18n): void {
  const make = i18n.getFixedT.bind(i18n);
  let texts = new Map<string, string>();
  const forget = () => {
    texts = new Map();
  };
  i18n.on('languageChanged', forget);
  i18n.store.on('added', forget);
  i18n.store.on('removed', forget);

  i18n.getFixedT = ((lng: unknown, ns: unknown, keyPrefix: unknown, options: unknown) => {
    const fixed = (make as (...args: unknown[]) => TFunction)(lng, ns, keyPrefix, options);
    const call = fixed as unknown as (...args: unknown[]) => unknown;
    // Made once per t; only the language is read at each call, for a t that follows the window's.
    const within = `\u0001${String(ns)}\u0001${String(keyPrefix ?? '')}`;
    const remembering = (key: unknown, opts?: unknown, ...rest: unknown[]) => {
      const id =
        typeof key === 'string' && rest.length === 0
          ? idOf(`${String(lng ?? i18n.language)}${within}`, key, opts)
          : undefined;
      if (id === undefined) return call(key, opts, ...rest);
      const known = texts.get(id);
      if (known !== undefined) return known;
      const text = call(key, opts);
      if (typeof text === 'string') {
        if (texts.size >= LIMIT) forget();
        texts.set(id, text);
      }
      return text;
    };
    // What react-i18next and callers read off a fixed t.
    const {
      lng: fixedLng,
      lngs,
      ns: fixedNs,
      keyPrefix: fixedPrefix,
    } = fixed as unknown as Record<string, unknown>;
    return Object.assign(remembering, {
      lng: fixedLng,
      lngs,
      ns: fixedNs,
      keyPrefix: fixedPrefix,
    }) as unknown as TFunction;
  }) as I18n['getFixedT'];
}

/** The call's identity, or undefined where its options cannot be told apart by their text. */
function idOf(scope: string, key: string, options: unknown): string | undefined {
  const base = `${scope}\u0001${key}`;
  if (options === undefined) return base;
  // t(key, 'default text')
  if (typeof options === 'string') return `${base}\u0002${options}`;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return undefined;
  let id = base;
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined) continue;
    const kind = typeof value;
    if (kind !== 'string' && kind !== 'number' && kind !== 'boolean') return undefined;
    id += `\u0002${name}\u0003${kind[0]}${String(value)}`;
  }
  return id;
}
