import { readFileSync } from 'node:fs';

export const VECTORS = new URL('../../../../docs/test-vectors/', import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function loadVectors(name: string): any {
  return JSON.parse(readFileSync(new URL(name + '.json', VECTORS), 'utf8'));
}
