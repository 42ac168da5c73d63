/**
 * Express's `trust proxy` from its configured text (API_TRUST_PROXY, BFF_TRUST_PROXY):
 * '' or 'false' = off; 'true' = every hop; a number = that many hops; anything else a list
 * of addresses or a name (`loopback`), as Express reads it.
 */
export function trustProxySetting(text: string): boolean | number | string {
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  return /^\d+$/.test(text) ? Number(text) : text;
}
