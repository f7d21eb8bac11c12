// The release record: CHANGELOG.md in Keep a Changelog form (Unreleased on top, then a dated section per
// release, newest first, each with what an operator must do under "Upgrading"), package.json's semver
// version (what /status says) matching it, the upgrade test starting from the newest release before this
// one, and the README pointing to the changelog.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_DIR } from '../support/paths.js';
import { compareVersions, isSemver, releaseSections } from './changelog.js';
import { PREVIOUS_RELEASE } from './previous-release.js';

const read = (file: string) => readFileSync(join(REPO_DIR, file), 'utf8');
const changelog = read('CHANGELOG.md');
const sections = releaseSections(changelog);
const released = sections.filter((s) => s.version !== 'Unreleased');
const { version } = JSON.parse(read('package.json')) as { version: string };
/** Keep a Changelog's kinds of change, and this project's "Upgrading". */
const HEADINGS = ['Upgrading', 'Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'];

test('the changelog says its form, and every release is dated, in order, with an Upgrading section first', () => {
  assert.match(changelog, /^# Changelog\n/);
  assert.match(changelog, /keepachangelog\.com\/en\/1\.1\.0/);
  assert.match(changelog, /semver\.org/);
  assert.ok(released.length >= 1);
  assert.ok(sections.findIndex((s) => s.version === 'Unreleased') <= 0, 'Unreleased, if there, is the first section');
  for (const section of released) {
    assert.ok(isSemver(section.version) && !section.version.includes('-'), `${section.version}: a release's version is x.y.z`);
    assert.ok(section.date !== null && !Number.isNaN(Date.parse(section.date)), `${section.version} has its date`);
  }
  for (let i = 1; i < released.length; i++) {
    assert.ok(compareVersions(released[i - 1].version, released[i].version) > 0, `${released[i - 1].version} is newer than ${released[i].version}, so comes first`);
    assert.ok(released[i - 1].date! >= released[i].date!, `${released[i - 1].version} is not dated before ${released[i].version}`);
  }
  for (const section of sections) {
    assert.equal(section.headings[0], 'Upgrading', `${section.version}: what an operator does comes first`);
    assert.notEqual(section.upgrading, '', `${section.version}: Upgrading says what to do, or that nothing is`);
    assert.deepEqual(section.headings.filter((h) => !HEADINGS.includes(h)), [], `${section.version}: headings are ${HEADINGS.join(', ')}`);
  }
});

test("package.json's version is the newest release, or the next one with -dev and an Unreleased section", () => {
  assert.ok(isSemver(version), `package.json's version ${version} is semver`);
  const lock = JSON.parse(read('package-lock.json')) as { version: string; packages: Record<string, { version: string }> };
  assert.deepEqual([lock.version, lock.packages[''].version], [version, version], 'package-lock.json says the same version');
  const [newest] = released;
  if (version.endsWith('-dev')) {
    assert.equal(sections[0].version, 'Unreleased', 'a -dev version has its changes under Unreleased');
    assert.ok(compareVersions(version.slice(0, -'-dev'.length), newest.version) > 0, `${version} is the next release after ${newest.version}`);
  } else {
    assert.equal(newest.version, version, `CHANGELOG.md's newest release is ${version}`);
  }
});

test('the upgrade test starts from the release before this one', () => {
  const previous = version.endsWith('-dev') ? released[0] : released[1];
  assert.ok(previous, 'a release before this one');
  assert.equal(PREVIOUS_RELEASE.version, previous.version, 'after a release, point PREVIOUS_RELEASE (test/upgrade/previous-release.ts) at it');
  assert.equal(PREVIOUS_RELEASE.tag, `v${previous.version}`);
  assert.ok(previous.text.includes(`\`${PREVIOUS_RELEASE.tag}\``) && previous.text.includes(PREVIOUS_RELEASE.commit.slice(0, 7)), 'its section names its tag and commit');
});

test('the README links the changelog', () => {
  assert.match(read('README.md'), /\]\(CHANGELOG\.md\)/);
});
