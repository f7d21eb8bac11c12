// Finds a native uWebSockets.js binary this Node and platform can load, and loads nothing else: the
// official `uWebSockets.js` package if an operator installed it from its GitHub releases, else the npm
// registry's `@trufflesuite/uws-js-unofficial` (binaries for Node 16, 18 and 20). Each package's binary
// file is loaded directly, never the package's entry: the unofficial one's entry silently swaps in a slow
// pure-JS fallback when its binary cannot load, and that fallback must never serve. The loader is
// injectable, so a test can point it at a package whose binary is missing.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The uWebSockets.js API (the unofficial package's types; the official package has the same). */
export type UwsModule = typeof import('@trufflesuite/uws-js-unofficial');

/** How packages are found and binaries loaded: `require` by default. */
export interface ModuleLoader {
  /** The path of a module (throws when it is not installed). */
  resolve(id: string): string;
  /** Loads a file (a .node binary here). */
  load(path: string): unknown;
}

/** A package that may carry a binary, and where the binary lies in it. */
interface UwsPackage {
  readonly name: string;
  readonly binaryFolder: string;
}

/** Looked for in this order. */
const PACKAGES: readonly UwsPackage[] = [
  { name: 'uWebSockets.js', binaryFolder: '.' },
  { name: '@trufflesuite/uws-js-unofficial', binaryFolder: 'binaries' },
];

export type UwsProbe =
  | { readonly module: UwsModule; readonly binary: string }
  /** `failures`: per package, why no binary loaded ("not installed", the loader's error). */
  | { readonly module: null; readonly failures: readonly string[] };

/** The binary's file name for this process: uws_<platform>_<arch>_<Node's module ABI>.node. */
export function binaryName(platform = process.platform, arch = process.arch, abi = process.versions.modules): string {
  return `uws_${platform}_${arch}_${abi}.node`;
}

/** The first package whose binary loads, or why none did. */
export function findNativeUws(loader: ModuleLoader = requireLoader()): UwsProbe {
  const failures: string[] = [];
  for (const pkg of PACKAGES) {
    let root: string;
    try {
      root = dirname(loader.resolve(`${pkg.name}/package.json`));
    } catch {
      failures.push(`${pkg.name}: not installed`);
      continue;
    }
    const binary = join(root, pkg.binaryFolder, binaryName());
    try {
      return { module: loader.load(binary) as UwsModule, binary: `${pkg.name}/${join(pkg.binaryFolder, binaryName())}` };
    } catch (error) {
      failures.push(`${pkg.name}: ${(error as NodeJS.ErrnoException)?.code === 'MODULE_NOT_FOUND' ? `has no ${binaryName()}` : firstLine(error)}`);
    }
  }
  return { module: null, failures };
}

let probed: UwsProbe | null = null;

/** findNativeUws() with the real loader, once per thread. */
export function nativeUws(): UwsProbe {
  return (probed ??= findNativeUws());
}

function requireLoader(): ModuleLoader {
  const require = createRequire(import.meta.url);
  return { resolve: (id) => require.resolve(id), load: (path) => require(path) };
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0];
}
