/** Where the device store lives: one text blob, replaced atomically. */
export interface DeviceStorage {
  load(): Promise<string | undefined>;
  /** Replaces the stored text atomically and durably before resolving. */
  save(text: string): Promise<void>;
}

export class MemoryStorage implements DeviceStorage {
  text: string | undefined;
  async load() { return this.text; }
  async save(text: string) { this.text = text; }
}

/**
 * Browsers: IndexedDB. TODO: implement with one object store and a single readwrite transaction per save (a
 * transaction is atomic); until then this stub refuses to run, so nobody mistakes it for durable storage.
 */
export class IndexedDbStorage implements DeviceStorage {
  constructor(readonly dbName = 'pgw-device') {}
  async load(): Promise<string | undefined> { throw new Error('IndexedDbStorage is not implemented yet (TODO)'); }
  async save(): Promise<void> { throw new Error('IndexedDbStorage is not implemented yet (TODO)'); }
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; t[n] = c >>> 0; }
  return t;
})();
export function crc32(b: Uint8Array): number {
  let c = 0xffffffff;
  for (const x of b) c = CRC_TABLE[(c ^ x) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
