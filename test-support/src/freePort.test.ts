/**
 * The ports tests' servers get are below the ones the kernel gives outgoing connections:
 * a port from that range, free when checked, can be a test's outgoing connection's own
 * local port by the time the server listens on it (EADDRINUSE).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from './pgProcesses.ts';

const ephemeralFrom = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

describe('freePort', () => {
  it('hands out distinct ports below the outgoing connections\' range, each one a server can listen on', async () => {
    const ports = [];
    for (let i = 0; i < 20; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(20);
    for (const port of ports) {
      expect(port).toBeLessThan(ephemeralFrom);
      const server = createServer();
      await new Promise<void>((listening, fail) => server.once('error', fail).listen(port, '127.0.0.1', () => listening()));
      await new Promise<void>((closed) => server.close(() => closed()));
    }
  });
});
