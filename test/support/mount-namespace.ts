// A private mount namespace (unshare), so a test can mount a small tmpfs and fill a real disk without root
// and without touching the machine's own mounts.
import { spawnSync } from 'node:child_process';

/** Runs its arguments as root of a new user namespace with a mount namespace of its own. */
export const UNSHARE = ['unshare', '--user', '--map-root-user', '--mount'];

/** A node:test `skip` value: false where such a namespace can be made, else why not. */
export const noMountNamespace: string | false =
  spawnSync(UNSHARE[0], [...UNSHARE.slice(1), 'true']).status === 0 ? false : 'cannot make a private mount namespace here (unshare --user --mount failed)';
