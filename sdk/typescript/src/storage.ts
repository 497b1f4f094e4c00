/** Where the device store lives: one text blob, replaced atomically. */
export interface DeviceStorage {
  load(): Promise<string | undefined>;
  /** Replaces the stored text atomically and durably before resolving. */
  save(text: string): Promise<void>;
  /** Releases the store (its lock, if any). */
  close?(): Promise<void>;
}

export class MemoryStorage implements DeviceStorage {
  text: string | undefined;
  async load() { return this.text; }
  async save(text: string) { this.text = text; }
}

/**
 * Browsers: the device store as one value in IndexedDB (database `dbName`, store `state`, key `device`). A save is
 * one readwrite transaction with strict durability, atomic by IndexedDB's rules; it resolves on `complete`.
 * Not guarded against two tabs using one database at once (TODO: a Web Lock, `navigator.locks`).
 */
export class IndexedDbStorage implements DeviceStorage {
  private db: Promise<IDBDatabase> | undefined;
  constructor(readonly dbName = 'pgw-device') {}
  private open(): Promise<IDBDatabase> {
    if (!this.db) {
      this.db = new Promise((resolve, reject) => {
        const req = indexedDB.open(this.dbName, 1);
        req.onupgradeneeded = () => { req.result.createObjectStore('state'); };
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    }
    return this.db;
  }
  async load(): Promise<string | undefined> {
    const db = await this.open();
    return new Promise((resolve, reject) => {
      const req = db.transaction('state', 'readonly').objectStore('state').get('device');
      req.onsuccess = () => resolve(req.result === undefined ? undefined : String(req.result));
      req.onerror = () => reject(req.error);
    });
  }
  async save(text: string): Promise<void> {
    const db = await this.open();
    return new Promise((resolve, reject) => {
      const tx = db.transaction('state', 'readwrite', { durability: 'strict' });
      tx.objectStore('state').put(text, 'device');
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  }
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
