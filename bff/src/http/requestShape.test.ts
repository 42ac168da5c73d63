import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { bffRoutes, jsonDepth } from './requestShape.ts';

describe('the BFF routes table', () => {
  it('names exactly the paths and methods of spec/bff.yaml', () => {
    const spec = parse(readFileSync(new URL('../../../spec/bff.yaml', import.meta.url), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const fromSpec = Object.fromEntries(
      Object.entries(spec.paths).map(([path, item]) => [path, Object.keys(item).filter((key) => ['get', 'post', 'put', 'patch', 'delete'].includes(key)).map((m) => m.toUpperCase())]),
    );
    expect(bffRoutes).toEqual(fromSpec);
  });
});

describe('jsonDepth', () => {
  it.each([
    ['a scalar', 5, 0],
    ['a flat object', { a: 1 }, 1],
    ['nested', { a: [{ b: [] }] }, 4],
  ])('%s', (_name, value, depth) => {
    expect(jsonDepth(value)).toBe(depth);
  });

  it('measures 100,000 levels without overflowing', () => {
    let value: unknown = 1;
    for (let i = 0; i < 100_000; i++) value = [value];
    expect(jsonDepth(value)).toBe(100_000);
  });
});
