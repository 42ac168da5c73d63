import { describe, expect, it } from 'vitest';
import { connectToListedHost, hostSelector, NoMatchingHost, parseHostList, serves, type HostRole } from './hostList.ts';

describe('parseHostList (libpq multi-host URLs)', () => {
  it('leaves an ordinary one-host URL to pg', () => {
    expect(parseHostList('postgres://u:p@db:5432/tidewater')).toBeUndefined();
    expect(parseHostList('postgres://u:p@db:5432/tidewater?sslmode=require')).toBeUndefined();
  });

  it('reads several hosts, their ports (5432 when none) and the two parameters', () => {
    const list = parseHostList('postgresql://bank:s3cr%40t@h1:5433,h2,[::1]:6000/tidewater?target_session_attrs=read-write&sslmode=disable')!;
    expect(list.hosts).toEqual([
      { host: 'h1', port: 5433 },
      { host: 'h2', port: 5432 },
      { host: '::1', port: 6000 },
    ]);
    expect(list.targetSessionAttrs).toBe('read-write');
    expect(list.loadBalanceHosts).toBe('disable');
    expect(list.urlFor(list.hosts[1]!)).toBe('postgresql://bank:s3cr%40t@h2:5432/tidewater?sslmode=disable');
    expect(list.urlFor(list.hosts[2]!)).toBe('postgresql://bank:s3cr%40t@[::1]:6000/tidewater?sslmode=disable');
  });

  it('takes one host with a target, and defaults to any/disable', () => {
    const one = parseHostList('postgres://db/tidewater?target_session_attrs=prefer-standby&load_balance_hosts=random')!;
    expect([one.hosts, one.targetSessionAttrs, one.loadBalanceHosts]).toEqual([[{ host: 'db', port: 5432 }], 'prefer-standby', 'random']);
    expect(one.urlFor(one.hosts[0]!)).toBe('postgres://db:5432/tidewater');
    expect(parseHostList('postgres://a,b/x')!.targetSessionAttrs).toBe('any');
  });

  it('refuses what libpq refuses, naming the value', () => {
    expect(() => parseHostList('postgres://a,b/x?target_session_attrs=master')).toThrow(/target_session_attrs .*"master"/);
    expect(() => parseHostList('postgres://a,b/x?load_balance_hosts=true')).toThrow(/load_balance_hosts .*"true"/);
    expect(() => parseHostList('postgres://u:secret@a,b:port/x')).toThrow(/\*\*\*@/);
  });
});

describe('serves (libpq target_session_attrs)', () => {
  const primary: HostRole = { standby: false, readOnly: false };
  const readOnlyPrimary: HostRole = { standby: false, readOnly: true };
  const standby: HostRole = { standby: true, readOnly: true };
  it.each([
    ['read-write', [true, false, false]],
    ['read-only', [false, true, true]],
    ['primary', [true, true, false]],
    ['standby', [false, false, true]],
    ['any', [true, true, true]],
  ] as const)('%s', (target, expected) => {
    expect([primary, readOnlyPrimary, standby].map((role) => serves(target, role))).toEqual(expected);
  });
  it('judges a session that is read-only by its own choice by recovery alone', () => {
    expect(serves('read-write', { standby: false, readOnly: true }, true)).toBe(true);
    expect(serves('read-write', standby, true)).toBe(false);
  });
});

describe('hostSelector', () => {
  const roles = new Map<string, HostRole | 'down'>();
  const login = async (url: string) => {
    const role = roles.get(new URL(url).host);
    if (!role || role === 'down') throw Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    return role;
  };
  const list = (query: string) => parseHostList(`postgres://h1:1,h2:2,h3:3/db?${query}`)!;

  it('finds the primary whatever its place in the list, remembers it, and probes again once told to forget it', async () => {
    roles.set('h1:1', 'down').set('h2:2', { standby: true, readOnly: true }).set('h3:3', { standby: false, readOnly: false });
    let logins = 0;
    const selector = hostSelector(list('target_session_attrs=read-write'), { login: (url) => (logins++, login(url)) });
    const [a, b] = await Promise.all([selector.pick(), selector.pick()]);
    expect([a, b]).toEqual([{ host: 'h3', port: 3 }, { host: 'h3', port: 3 }]);
    expect(logins).toBe(3); // one shared probe
    await selector.pick();
    expect(logins).toBe(3);
    roles.set('h3:3', 'down').set('h2:2', { standby: false, readOnly: false }); // promoted
    selector.forget({ host: 'h3', port: 3 });
    expect(await selector.pick()).toEqual({ host: 'h2', port: 2 });
  });

  it('rejects with NoMatchingHost naming what it saw when no host serves the target', async () => {
    roles.set('h1:1', 'down').set('h2:2', { standby: true, readOnly: true }).set('h3:3', { standby: false, readOnly: true });
    const failed = await hostSelector(list('target_session_attrs=read-write'), { login }).pick().catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(NoMatchingHost);
    expect((failed as Error).message).toMatch(/h1:1 ECONNREFUSED; h2:2 standby; h3:3 primary read-only/);
  });

  it('prefers a standby and falls back to the primary; spreads over the list when asked', async () => {
    roles.set('h1:1', { standby: false, readOnly: false }).set('h2:2', { standby: true, readOnly: true }).set('h3:3', 'down');
    expect(await hostSelector(list('target_session_attrs=prefer-standby'), { login }).pick()).toEqual({ host: 'h2', port: 2 });
    roles.set('h2:2', 'down');
    expect(await hostSelector(list('target_session_attrs=prefer-standby'), { login }).pick()).toEqual({ host: 'h1', port: 1 });
    roles.set('h2:2', { standby: false, readOnly: false }).set('h3:3', { standby: false, readOnly: false });
    const seen = new Set<string>();
    for (let i = 0; i < 30; i++) seen.add((await hostSelector(list('load_balance_hosts=random'), { login }).pick()).host);
    expect([...seen].sort()).toEqual(['h1', 'h2', 'h3']);
  });
});

describe('connectToListedHost', () => {
  const client = (standby: boolean) => {
    const c = {
      host: 'h1',
      port: 1,
      connectionParameters: { host: 'h1', port: 1 },
      ended: false,
      query: async () => ({ rows: [{ standby, read_only: standby }] }),
      end: async () => {
        c.ended = true;
      },
    };
    return c;
  };

  it('steers the connection to the chosen host and keeps it when its role still matches', async () => {
    const selector = hostSelector(parseHostList('postgres://h1:1,h2:2/db?target_session_attrs=read-write')!, {
      login: async (url) => ({ standby: !url.includes('h2'), readOnly: !url.includes('h2') }),
    });
    const c = client(false);
    expect(await connectToListedHost(c, selector, async () => {})).toEqual({ host: 'h2', port: 2 });
    expect([c.host, c.port, c.connectionParameters]).toEqual(['h2', 2, { host: 'h2', port: 2 }]);
  });

  it('ends a connection whose host changed role since the probe, forgets the host and fails with NoMatchingHost', async () => {
    let probes = 0;
    const selector = hostSelector(parseHostList('postgres://h1:1,h2:2/db?target_session_attrs=read-write')!, {
      login: async () => (probes++, { standby: false, readOnly: false }),
    });
    const c = client(true); // demoted between the probe and this login
    await expect(connectToListedHost(c, selector, async () => {})).rejects.toBeInstanceOf(NoMatchingHost);
    expect(c.ended).toBe(true);
    await selector.pick();
    expect(probes).toBe(2);
  });
});
