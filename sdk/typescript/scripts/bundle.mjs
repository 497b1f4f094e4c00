// Bundles the SDK with esbuild (ES module, minified, browser) and prints minified and gzipped sizes.
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';

const entries = {
  // the client with one protocol: what a page that only reports a histogram with grr ships
  'histogram-grr': `export { Client } from './src/client.ts'; export { HttpTransport } from './src/transport.ts';
    export { IndexedDbStorage, MemoryStorage } from './src/storage.ts'; export { grr } from './src/fo.ts';`,
  // the client with every frequency oracle but the tree
  'histogram-all-oracles': `export { Client } from './src/client.ts'; export { HttpTransport } from './src/transport.ts';
    export { IndexedDbStorage, MemoryStorage } from './src/storage.ts'; export { grr, oue, olh, subsetSelection, hadamardResponse } from './src/fo.ts';`,
  // everything the package exports
  'full': `export * from './src/index.ts';`,
};
mkdirSync('dist', { recursive: true });
const rows = [];
for (const [name, contents] of Object.entries(entries)) {
  const r = await build({
    stdin: { contents, resolveDir: '.', loader: 'ts', sourcefile: name + '.ts' },
    bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2020', write: false,
    resolveExtensions: ['.ts', '.js'],
    plugins: [{ name: 'js-to-ts', setup(b) { b.onResolve({ filter: /^\.\/.*\.js$/ }, (a) => ({ path: new URL(a.path.replace(/\.js$/, '.ts'), 'file://' + a.resolveDir + '/').pathname })); } }],
  });
  const code = r.outputFiles[0].contents;
  writeFileSync(`dist/${name}.min.js`, code);
  rows.push([name, code.length, gzipSync(code, { level: 9 }).length]);
}
console.log('bundle                   minified   min+gzip');
for (const [n, m, g] of rows) console.log(n.padEnd(24), String(m).padStart(9), String(g).padStart(10));
