// Serves the latest open data dump (written by `npm run dump`) under /dumps/; the licence page links here.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HttpServer } from '../http/server.js';
import type { Problems } from '../http/problem.js';
import type { Config } from '../config.js';
import type { Limits } from '../api/limits.js';
import { GuardChain } from '../api/guards.js';
import { DUMP_ROUTES } from './operations.js';
import { DUMP_FILES } from './dump.js';

const CONTENT_TYPES: Record<string, string> = {
  [DUMP_FILES.geojson]: 'application/gzip',
  [DUMP_FILES.csv]: 'application/gzip',
  [DUMP_FILES.notice]: 'text/plain; charset=utf-8',
};

export function registerDumpRoutes(server: HttpServer, deps: { config: Config; limits: Limits; problems: Problems; now: () => number }): void {
  const { config, problems } = deps;
  new GuardChain(deps).operation(server, DUMP_ROUTES[0], {
    handle: async (request, { headers }) => {
      const file = request.params.file;
      const type = CONTENT_TYPES[file];
      const missing = () =>
        problems.reply('not-found', `There is no dump file ${JSON.stringify(file)}. The dump files are ${Object.values(DUMP_FILES).join(', ')}, once the operator has run \`npm run dump\`.`, { headers });
      if (type === undefined) return missing();
      let body: Buffer;
      try {
        body = await readFile(join(config.dumpDir, file));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return missing(); // no dump yet, or DUMP_DIR is not a folder
        throw error;
      }
      return {
        status: 200,
        headers: ['Content-Type', type, 'Cache-Control', 'public, max-age=3600', 'Content-Disposition', `attachment; filename="${file}"`, ...headers],
        body,
      };
    },
  });
}
