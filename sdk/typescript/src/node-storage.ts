/** Node: the device store as one file, `pgw-device.state`, ending with a CRC-32; written to a temp file, fsynced, renamed. */
import { open, readFile, rename, unlink, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32, DeviceStorage } from './storage.js';

export class FileStorage implements DeviceStorage {
  private readonly file: string;
  private readonly tmp: string;
  constructor(private readonly directory: string) {
    this.file = join(directory, 'pgw-device.state');
    this.tmp = this.file + '.tmp';
  }
  async load(): Promise<string | undefined> {
    await mkdir(this.directory, { recursive: true });
    await unlink(this.tmp).catch(() => undefined); // a torn write was never renamed: harmless
    let bytes: Buffer;
    try { bytes = await readFile(this.file); } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
    const text = bytes.toString('utf8');
    const nl = text.lastIndexOf('\n');
    const body = text.slice(0, nl);
    if (nl < 0 || text.slice(nl + 1) !== crc32(new TextEncoder().encode(body)).toString(16).padStart(8, '0'))
      throw new Error('device store ' + this.file + ' fails its checksum (refused, not reset)');
    return body;
  }
  async save(text: string): Promise<void> {
    const data = text + '\n' + crc32(new TextEncoder().encode(text)).toString(16).padStart(8, '0');
    const fh = await open(this.tmp, 'w');
    try { await fh.writeFile(data, 'utf8'); await fh.sync(); } finally { await fh.close(); }
    await rename(this.tmp, this.file);
    const dir = await open(this.directory, 'r');
    try { await dir.sync(); } catch { /* some platforms cannot fsync a directory */ } finally { await dir.close(); }
  }
}
