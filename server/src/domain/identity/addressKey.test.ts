import { describe, expect, it } from 'vitest';
import { addressKey } from './addressKey.ts';

describe('addressKey', () => {
  it.each([
    ['an IPv4 address', '198.51.100.7', '198.51.100.7'],
    ['an IPv4-mapped IPv6 address', '::ffff:198.51.100.7', '198.51.100.7'],
    ['a full IPv6 address', '2001:0db8:0001:0002:0003:0004:0005:0006', '2001:db8:1:2::/64'],
    ['another address of the same /64', '2001:db8:1:2:ffff::1', '2001:db8:1:2::/64'],
    ['a compressed address', '2001:db8::1', '2001:db8:0:0::/64'],
    ['the loopback', '::1', '0:0:0:0::/64'],
    ['an address with a zone', 'fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['no address at all', 'unknown', 'unknown'],
  ])('%s', (_name, given, want) => {
    expect(addressKey(given)).toBe(want);
  });

  it('tells two /64s apart', () => {
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
  });
});
