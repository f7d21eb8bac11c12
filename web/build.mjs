// Builds the site's front end into dist/web (run by `npm run build`): esbuild bundles one ES module per
// page type (find, toilet, propose, account) with shared chunks split off and MapLibre only in the map chunk, all
// under content-hashed names in dist/web/assets; copies MapLibre's worker and CSS and ALTCHA's CSS and
// workers under hashed names too; notes each language's catalogue chunk; draws the app icons (icons.mjs); builds the service worker at dist/web/sw.js with the shell's file list;
// writes .gz and .br beside every file, and manifest.json mapping logical names to public paths, which the
// server (src/web/assets.ts) reads at start.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { ICON_FILES } from './icons.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'web');
const assetsDir = join(out, 'assets');
rmSync(out, { recursive: true, force: true });
mkdirSync(assetsDir, { recursive: true });

const result = await build({
  absWorkingDir: root,
  entryPoints: { find: 'web/src/find.ts', toilet: 'web/src/toilet.ts', propose: 'web/src/propose.ts', account: 'web/src/account.ts', site: 'web/src/site.css' },
  bundle: true,
  splitting: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  outdir: assetsDir,
  entryNames: '[name]-[hash]',
  chunkNames: 'chunk-[hash]',
  metafile: true,
  legalComments: 'linked',
  logLevel: 'warning',
});

const manifest = { shell: [], languages: {} };
for (const [file, meta] of Object.entries(result.metafile.outputs)) {
  const name = basename(file);
  const entry = /^web\/src\/(find|toilet|propose|account|site)\.(ts|css)$/.exec(meta.entryPoint ?? '');
  if (entry && !name.endsWith('.map')) manifest[`${entry[1]}.${extname(name).slice(1)}`] = `/assets/${name}`;
}

// Each language's catalogue is a chunk of its own (web/src/texts.ts imports it dynamically): the page's
// head preloads the one of its language, and the service worker keeps that one, not all seven.
for (const [file, meta] of Object.entries(result.metafile.outputs)) {
  const catalogue = Object.keys(meta.inputs).map((input) => /^src\/web\/text\/([a-z]{2})\.ts$/.exec(input)?.[1]).find(Boolean);
  if (catalogue && !file.endsWith('.map')) manifest.languages[catalogue] = `/assets/${basename(file)}`;
}
const languageChunks = new Set(Object.values(manifest.languages));

/** Copies a file under a content-hashed name and records it. */
function copyHashed(logical, source, ext) {
  const bytes = readFileSync(source);
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 10);
  const name = `${logical.replace(/\.\w+$/, '')}-${hash}${ext}`;
  writeFileSync(join(assetsDir, name), bytes);
  manifest[logical] = `/assets/${name}`;
}
const modules = join(root, 'node_modules');
copyHashed('maplibre.css', join(modules, 'maplibre-gl/dist/maplibre-gl.css'), '.css');
copyHashed('maplibre-worker.js', join(modules, 'maplibre-gl/dist/maplibre-gl-worker.mjs'), '.mjs');
copyHashed('altcha.css', join(modules, 'altcha/dist/external/altcha.css'), '.css');
copyHashed('altcha-sha.js', join(modules, 'altcha/dist/workers/sha.js'), '.js');
copyHashed('altcha-pbkdf2.js', join(modules, 'altcha/dist/workers/pbkdf2.js'), '.js');

// The shell the service worker precaches: the pages' code and styles (not the map library, not ALTCHA,
// which are cached when first used, nor the catalogues, of which it keeps the one in use).
const mapChunks = new Set(
  Object.entries(result.metafile.outputs)
    .filter(([, meta]) => Object.keys(meta.inputs).some((input) => input.includes('node_modules/maplibre-gl') || input.includes('node_modules/altcha')))
    .map(([file]) => `/assets/${basename(file)}`),
);
manifest.shell = readdirSync(assetsDir)
  .filter((name) => /\.(js|css)$/.test(name) && !name.startsWith('maplibre') && !name.startsWith('altcha'))
  .map((name) => `/assets/${name}`)
  .filter((path) => !mapChunks.has(path) && !languageChunks.has(path))
  .sort();

await build({
  absWorkingDir: root,
  entryPoints: ['web/src/sw.ts'],
  bundle: true,
  format: 'iife',
  target: 'es2022',
  minify: true,
  outfile: join(out, 'sw.js'),
  define: { SHELL: JSON.stringify(['/app-config.json', ...manifest.shell]), LANGUAGE_CHUNKS: JSON.stringify(manifest.languages), SHELL_VERSION: JSON.stringify(createHash('sha256').update(manifest.shell.join()).digest('hex').slice(0, 10)) },
  logLevel: 'warning',
});

writeFileSync(join(out, 'manifest.webmanifest'), JSON.stringify({
  name: 'Public Toilet Finder',
  short_name: 'Toilets',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  background_color: '#ffffff',
  theme_color: '#0b5cad',
  icons: [
    { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
}));
for (const [name, draw] of Object.entries(ICON_FILES)) writeFileSync(join(out, name), draw());
writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 1));

// Precompressed variants: the server picks one by Accept-Encoding and never compresses these itself.
for (const dir of [assetsDir, out]) {
  for (const name of readdirSync(dir)) {
    if (!/\.(js|mjs|css|svg|webmanifest)$/.test(name)) continue;
    const bytes = readFileSync(join(dir, name));
    writeFileSync(join(dir, `${name}.gz`), gzipSync(bytes, { level: 9 }));
    writeFileSync(join(dir, `${name}.br`), brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  }
}
