// What app.ts knows of a feature to run it: its name, the features it stands on, and its start and close.
// The start order follows the declared needs (a feature starts after what it needs) and the close order is
// its reverse, so no hand-ordered list has to be kept right when a feature is added. Each feature's main
// class declares its own (structurally: no feature imports this module).

export interface Feature {
  /** The feature's folder name, e.g. 'billing'. */
  readonly name: string;
  /** The features whose objects this one uses while it runs: started before it, closed after it. */
  readonly needs: readonly string[];
  /** Starts its timers and background work; the server is not listening yet. */
  start(): void;
  /** Stops them and closes its files, after the server stopped answering. */
  close(): void | Promise<void>;
}

/**
 * The features in an order where each comes after every feature it needs; otherwise in the order given.
 * A need that is not in the list, or needs in a circle, are mistakes of the assembly, said at once.
 */
export function inStartOrder<F extends Feature>(features: readonly F[]): F[] {
  const byName = new Map(features.map((feature) => [feature.name, feature]));
  if (byName.size !== features.length) throw new Error(`two features share a name: ${features.map((f) => f.name).join(', ')}`);
  const ordered: F[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (feature: F, path: readonly string[]): void => {
    if (state.get(feature.name) === 'done') return;
    if (state.get(feature.name) === 'visiting') throw new Error(`features need each other in a circle: ${[...path, feature.name].join(' -> ')}`);
    state.set(feature.name, 'visiting');
    for (const need of feature.needs) {
      const needed = byName.get(need);
      if (needed === undefined) throw new Error(`feature ${feature.name} needs ${need}, which is not in the list of features`);
      visit(needed, [...path, feature.name]);
    }
    state.set(feature.name, 'done');
    ordered.push(feature);
  };
  for (const feature of features) visit(feature, []);
  return ordered;
}
