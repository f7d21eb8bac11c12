// Serves the latest open data dump (written by `npm run dump`) under /dumps/; the licence page links here.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HttpServer } from '../http/server.js';
import type { Problems } from '../http/problem.js';
import { takeBudget, type Limits } from '../api/limits.js';
import { DUMP_FILES } from './dump.js';

const CONTENT_TYPES: Record<string, string> = {
  [DUMP_FILES.geojson]: 'application/gzip',
  [DUMP_FILES.csv]: 'application/gzip',
  [DUMP_FILES.notice]: 'text/plain; charset=utf-8',
};

export function registerDumpRoutes(server: HttpServer, deps: { dumpDir: string; limits: Limits; problems: Problems<string>; now: () => number }): void {
  const { dumpDir, limits, problems, now } = deps;
  server.route({
    method: 'GET',
    pattern: '/dumps/:file',
    handler: async (request) => {
      const budget = takeBudget(limits.perIp, request, now(), problems);
      if (budget.refused) return budget.refused;
      const file = request.params.file;
      const type = CONTENT_TYPES[file];
      const missing = () =>
        problems.reply('not-found', `There is no dump file ${JSON.stringify(file)}. The dump files are ${Object.values(DUMP_FILES).join(', ')}, once the operator has run \`npm run dump\`.`, { headers: budget.headers });
      if (type === undefined) return missing();
      let body: Buffer;
      try {
        body = await readFile(join(dumpDir, file));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return missing();
        throw error;
      }
      return {
        status: 200,
        headers: ['Content-Type', type, 'Cache-Control', 'public, max-age=3600', 'Content-Disposition', `attachment; filename="${file}"`, ...budget.headers],
        body,
      };
    },
  });
}
