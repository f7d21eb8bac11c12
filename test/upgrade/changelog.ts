// CHANGELOG.md read as data (Keep a Changelog: a "## [version] - date" section per release, newest first,
// "## [Unreleased]" above them), and semver's order of versions: what the release checks and the upgrade
// test compare.

export interface ReleaseSection {
  /** `Unreleased`, or the release's version (x.y.z). */
  version: string;
  /** YYYY-MM-DD; null for Unreleased. */
  date: string | null;
  /** The "### …" headings in order. */
  headings: string[];
  /** The text under "### Upgrading" (what an operator must do), '' without one. */
  upgrading: string;
  text: string;
}

export function releaseSections(changelog: string): ReleaseSection[] {
  return changelog
    .split(/^(?=## )/m)
    .filter((part) => part.startsWith('## '))
    .map((text) => {
      const head = /^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?\s*$/m.exec(text.split('\n')[0]);
      if (!head) throw new Error(`CHANGELOG.md: "${text.split('\n')[0]}" is not "## [x.y.z] - YYYY-MM-DD" or "## [Unreleased]"`);
      const headings = [...text.matchAll(/^### (.+)$/gm)].map((m) => m[1].trim());
      const upgrading = /^### Upgrading\s*$([\s\S]*?)(?=^### |(?![\s\S]))/m.exec(text)?.[1].trim() ?? '';
      return { version: head[1], date: head[2] ?? null, headings, upgrading, text };
    });
}

const SEMVER = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/;

export function isSemver(version: string): boolean {
  return SEMVER.test(version);
}

/** Semver precedence: negative when a < b (a prerelease comes before its release), 0 when equal. */
export function compareVersions(a: string, b: string): number {
  const [pa, pb] = [SEMVER.exec(a), SEMVER.exec(b)];
  if (!pa || !pb) throw new Error(`not a semver version: ${pa ? b : a}`);
  for (let i = 1; i <= 3; i++) if (Number(pa[i]) !== Number(pb[i])) return Number(pa[i]) - Number(pb[i]);
  if (pa[4] === pb[4]) return 0;
  if (pa[4] === undefined) return 1;
  if (pb[4] === undefined) return -1;
  return pa[4] < pb[4] ? -1 : 1;
}

/** The section a version's changes are in: its own, or Unreleased for the next release being made (x.y.z-dev). */
export function sectionOf(sections: ReleaseSection[], version: string, packageVersion: string): ReleaseSection | undefined {
  return sections.find((s) => s.version === version) ?? (packageVersion === `${version}-dev` ? sections.find((s) => s.version === 'Unreleased') : undefined);
}
