/** 64-bit words as unsigned BigInt in [0, 2^64). */
export const MASK64 = (1n << 64n) - 1n;

/** A source of secret 64-bit words (wire-format §13.2). */
export interface WordSource {
  nextWord(): bigint;
}

/** Secret words from crypto.getRandomValues, 8 bytes per word (Web Crypto; Node 20 has globalThis.crypto). */
export class CryptoWordSource implements WordSource {
  private readonly buf = new BigUint64Array(32);
  private pos = 32;
  nextWord(): bigint {
    if (this.pos === this.buf.length) {
      globalThis.crypto.getRandomValues(this.buf);
      this.pos = 0;
    }
    const w = this.buf[this.pos];
    this.buf[this.pos++] = 0n;
    return w;
  }
}

/** Scripted words (tests): returns the given words in order and fails if asked for more. */
export class ScriptedWordSource implements WordSource {
  private pos = 0;
  constructor(private readonly words: readonly bigint[]) {}
  static fromHex(hex: readonly string[]): ScriptedWordSource {
    return new ScriptedWordSource(hex.map((h) => BigInt('0x' + h)));
  }
  nextWord(): bigint {
    if (this.pos >= this.words.length) throw new Error('scripted word source exhausted after ' + this.pos + ' words');
    return this.words[this.pos++];
  }
  get consumed(): number {
    return this.pos;
  }
}
