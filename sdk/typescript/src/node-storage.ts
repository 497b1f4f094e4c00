/** Node: the device store as one file, `pgw-device.state`, ending with a CRC-32; written to a temp file, fsynced, renamed. */
import { open, readFile, rename, unlink, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32, DeviceStorage } from './storage.js';

export class FileStorage implements DeviceStorage {
  private readonly file: string;
  private readonly tmp: string;
  constructor(private readonly directory: string) {
    this.file = join(directory, 'pgw-device.state');
    this.tmp = this.file + '.tmp';
  }
  private locked = false;
  /**
   * One client per directory: a lock file holding this process's id, created exclusively. A lock left by a dead
   * process (crash, kill -9) is taken over; a live holder fails the open, naming the file.
   */
  private async lock(): Promise<void> {
    const lockFile = join(this.directory, 'pgw-device.lock');
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await writeFile(lockFile, String(process.pid), { flag: 'wx' });
        this.locked = true;
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        const pid = parseInt(await readFile(lockFile, 'utf8').catch(() => ''), 10);
        let alive = false;
        if (pid > 0) { try { process.kill(pid, 0); alive = true; } catch (k) { alive = (k as NodeJS.ErrnoException).code === 'EPERM'; } }
        if (alive) throw new Error('device store ' + this.directory + ' is in use by process ' + pid + ' (' + lockFile + ')');
        await unlink(lockFile).catch(() => undefined);
      }
    }
    throw new Error('could not lock ' + lockFile);
  }
  async close(): Promise<void> {
    if (this.locked) { await unlink(join(this.directory, 'pgw-device.lock')).catch(() => undefined); this.locked = false; }
  }
  async load(): Promise<string | undefined> {
    await mkdir(this.directory, { recursive: true });
    if (!this.locked) await this.lock();
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
