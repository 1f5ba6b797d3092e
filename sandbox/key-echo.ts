import type { Exchange } from './exchange';

/**
 * What `echoKeyInErrors` makes an error say, the ways deployed gateways have been seen to repeat a
 * rejected key: as sent, URL-encoded (a query string logged back), base64 and base64url (an
 * `Authorization: Basic` header or a token echoed for debugging), and in debugging headers. A
 * client has to take out every one of them before it keeps or shows gateway text.
 */
export function echoRejectedKey(ex: Exchange, key: string): string {
  const [, [, url], [, base64], [, base64url]] = echoedKeyForms(key);
  // Misaligned by the "user:" in front, as a Basic credential is encoded.
  const basic = Buffer.from(`user:${key}`).toString('base64');
  // A key that arrived in a header is a valid header value, so these cannot throw on its account.
  ex.res.setHeader('x-debug-key', key);
  ex.res.setHeader('x-debug-key-url', url);
  ex.res.setHeader('x-request-id', `${ex.requestId}.${base64url}`);
  return `${key} (received as ${url}; credential ${base64}; token ${base64url}; basic ${basic})`;
}

/**
 * The forms of a key an echoing error repeats, named: what a test looks for, in the gateway's
 * answers (to know the echo happened) and everywhere in the studio (to know none got through).
 */
type Named = [how: string, form: string];
export function echoedKeyForms(key: string): [Named, Named, Named, Named] {
  return [
    ['as sent', key],
    ['URL-encoded', encodeURIComponent(key)],
    ['base64-encoded', Buffer.from(key).toString('base64')],
    ['base64url-encoded', Buffer.from(key).toString('base64url')],
  ];
}
