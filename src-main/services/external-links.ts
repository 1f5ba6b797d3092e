/** Hosts whose links may open in the system browser, besides the gateways the user configured. */
const ALLOWED_HOSTS = new Set(['github.com', 'www.electronjs.org']);

export function isAllowedExternalUrl(url: string, gatewayUrls: string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  if (parsed.username || parsed.password) return false;
  const gatewayHosts = gatewayUrls.flatMap((u) => {
    try {
      return [new URL(u).host];
    } catch {
      return [];
    }
  });
  return ALLOWED_HOSTS.has(parsed.hostname) || gatewayHosts.includes(parsed.host);
}
