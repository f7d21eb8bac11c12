// The import graph of src/ and importer/, read from the TypeScript sources: which module imports which,
// and whether only for types (an `import type` loads nothing at run time). The layer test checks it.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export interface ImportEdge {
  /** A module's path from the repository root ('src/api/reads.ts'), or a package name ('better-sqlite3'). */
  readonly to: string;
  readonly typeOnly: boolean;
  /**
   * A lazy reference, `() => import('…')`: the module is loaded only when the function is called (a
   * feature's slice names its command module so); the run-time closures do not follow it.
   */
  readonly lazy?: boolean;
}

const STATEMENT = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC = /(=>\s*)?\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every module under `folders` (paths from `root`) with its imports. */
export function importGraph(root: string, folders: readonly string[]): Map<string, ImportEdge[]> {
  const graph = new Map<string, ImportEdge[]>();
  for (const file of folders.flatMap((folder) => sourceFiles(join(root, folder)))) {
    const text = readFileSync(file, 'utf8');
    const from = relative(root, file);
    const target = (specifier: string) => (specifier.startsWith('.') ? relative(root, resolve(dirname(file), specifier.replace(/\.js$/, '.ts'))) : specifier);
    const edges: ImportEdge[] = [];
    for (const [, type, specifier] of text.matchAll(STATEMENT)) edges.push({ to: target(specifier), typeOnly: type !== undefined });
    for (const [, arrow, specifier] of text.matchAll(DYNAMIC)) edges.push({ to: target(specifier), typeOnly: false, ...(arrow ? { lazy: true } : {}) });
    graph.set(from, edges);
  }
  return graph;
}

/** The modules and packages `start` loads at run time, itself included. */
export function runtimeClosure(graph: Map<string, ImportEdge[]>, start: string): Set<string> {
  const seen = new Set<string>([start]);
  const queue = [start];
  while (queue.length > 0) {
    for (const edge of graph.get(queue.pop()!) ?? []) {
      if (edge.typeOnly || edge.lazy || seen.has(edge.to)) continue;
      seen.add(edge.to);
      queue.push(edge.to);
    }
  }
  return seen;
}

/** How `start` reaches `target` at run time, as the chain of modules, or null. */
export function runtimePath(graph: Map<string, ImportEdge[]>, start: string, target: string): string[] | null {
  const previous = new Map<string, string | null>([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const module = queue.shift()!;
    if (module === target) {
      const path: string[] = [];
      for (let at: string | null = module; at !== null; at = previous.get(at)!) path.unshift(at);
      return path;
    }
    for (const edge of graph.get(module) ?? []) {
      if (edge.typeOnly || edge.lazy || previous.has(edge.to)) continue;
      previous.set(edge.to, module);
      queue.push(edge.to);
    }
  }
  return null;
}

/** Each import cycle among project modules (type imports included, lazy references not), as the modules around it. */
export function importCycles(graph: Map<string, ImportEdge[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (module: string) => {
    state.set(module, 'open');
    stack.push(module);
    // a lazy reference is no load-time import: a slice naming its command module, which reads the list again, is no cycle
    for (const { to, lazy } of graph.get(module) ?? []) {
      if (!graph.has(to) || lazy) continue;
      if (state.get(to) === 'open') cycles.push([...stack.slice(stack.indexOf(to)), to]);
      else if (!state.has(to)) visit(to);
    }
    stack.pop();
    state.set(module, 'done');
  };
  for (const module of graph.keys()) if (!state.has(module)) visit(module);
  return cycles;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}
