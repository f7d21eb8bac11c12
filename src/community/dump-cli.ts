// The old path of `npm run dump` (dist/src/community/dump-cli.js), kept for one release: systemd units and
// scripts of the previous release call it. The command is src/dumps/dump-cli.ts; remove this file in the
// release after 0.2 (CHANGELOG.md, "Upgrading").
import { runAsScript } from '../cli/command.js';
import { main } from '../dumps/dump-cli.js';

runAsScript(import.meta.url, main);
