// The deploy/systemd units of a release tree read as data: their directives, the scripts their ExecStart
// lines run, the environment they give (EnvironmentFile and Environment=), and an ExecStart as the command
// it runs on this machine: /usr/bin/node → this node, /opt/toilet-finder → the tree, systemd's %% and ${VAR}
// resolved. test/deploy checks this tree's units; test/upgrade starts the previous release's on the new one.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the units say the code and the data are. */
export const UNIT_CODE_DIR = '/opt/toilet-finder';
export const UNIT_DATA_DIR = '/var/lib/toilet-finder';

export function unitNames(tree: string): string[] {
  return readdirSync(join(tree, 'deploy', 'systemd')).filter((name) => /\.(service|timer)$/.test(name)).sort();
}

export function unitText(tree: string, unit: string): string {
  return readFileSync(join(tree, 'deploy', 'systemd', unit), 'utf8');
}

/** A unit's directives as [key, value] pairs (comments and section headings left out). */
export function unitDirectives(tree: string, unit: string): (readonly [string, string])[] {
  return unitText(tree, unit)
    .split('\n')
    .filter((line) => /^[A-Za-z]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const);
}

export function execStarts(tree: string, unit: string): string[] {
  return unitDirectives(tree, unit)
    .filter(([key]) => key === 'ExecStart')
    .map(([, value]) => value);
}

/** The scripts (paths in the tree, e.g. dist/src/main.js) every ExecStart of the tree's units runs. */
export function unitScripts(tree: string): { unit: string; script: string }[] {
  return unitNames(tree).flatMap((unit) => execStarts(tree, unit).flatMap((line) => [...line.matchAll(/\/opt\/toilet-finder\/(\S+\.js)/g)].map((m) => ({ unit, script: m[1] }))));
}

/** KEY=VALUE lines of an EnvironmentFile (deploy/systemd/env.example), comments and blank lines left out. */
export function environmentFile(path: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) env[match[1]] = match[2];
  }
  return env;
}

/** A unit's own Environment= assignments (space-separated KEY=VALUE words). */
export function unitEnvironment(tree: string, unit: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of unitDirectives(tree, unit)) {
    if (key !== 'Environment') continue;
    for (const word of value.split(/\s+/).filter(Boolean)) env[word.slice(0, word.indexOf('='))] = word.slice(word.indexOf('=') + 1);
  }
  return env;
}

/**
 * An ExecStart line as the argv it runs here, code from `tree`, `/usr/bin/node` → `node`: a single-quoted word is one argument (as
 * `/bin/sh -c '…'`), `${VAR}` outside quotes takes its value from `env`, `%%` is `%`.
 */
export function commandOf(line: string, tree: string, env: Record<string, string>, node = process.execPath): string[] {
  const local = line.replaceAll('/usr/bin/node', node).replaceAll(UNIT_CODE_DIR, tree).replaceAll('%%', '%');
  return [...local.matchAll(/'([^']*)'|(\S+)/g)].map(([, quoted, word]) => quoted ?? word.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => env[name] ?? ''));
}
