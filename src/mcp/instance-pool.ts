// Server instances of the 2026-07-28 path kept for the next request instead of one built per request
// (docs/PERFORMANCE.md has what it saves). The SDK refuses an instance that still serves another exchange
// and closes the instance at the end of each exchange, so an instance goes back to the pool when it
// closes, never sooner. A modern request brings its client's identity in its envelope, and the SDK seeds
// it into the instance each time; what a previous client left there (its clientInfo, when the next one
// sends none) is read only by the SDK's deprecated getClientVersion, which nothing here calls. 2025-era
// requests get a fresh instance: their initialize leaves the negotiated version and the client's
// capabilities on it, which would change a later client's answers.
import type { McpServer } from '@modelcontextprotocol/server';

export class InstancePool {
  private readonly idle: McpServer[] = [];

  /** At most `keep` idle instances are kept (about the requests in flight at once on a busy thread). */
  constructor(
    private readonly make: () => McpServer,
    private readonly keep: number,
  ) {}

  /** An idle instance, or a new one; it comes back once its exchange has closed it. */
  take(): McpServer {
    const instance = this.idle.pop() ?? this.make();
    let back = false;
    // the SDK chains its own onclose in front of this one for each exchange, and restores it after
    instance.server.onclose = () => {
      if (back) return;
      back = true;
      if (this.idle.length < this.keep) this.idle.push(instance);
    };
    return instance;
  }
}
