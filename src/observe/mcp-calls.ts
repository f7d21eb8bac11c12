// MCP tool calls by tool and outcome, counted by every server thread into one table in shared memory
// (the tools are answered on every thread) and read by the main thread's /metrics. One Atomics.add per
// call: several threads write the same cells.

/** The tools counted, in their cells' order (src/mcp/tools.ts TOOL_NAMES). */
const TOOLS = ['find_toilets_near', 'get_toilet'] as const;
const OUTCOMES = ['ok', 'error'] as const;

export type McpCallOutcome = (typeof OUTCOMES)[number];

export interface McpCallCount {
  tool: string;
  outcome: McpCallOutcome;
  count: number;
}

export class McpCallCounts {
  private readonly cells: BigInt64Array;

  /** A new table, or a view of the one another thread made. */
  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(TOOLS.length * OUTCOMES.length * 8)) {
    this.cells = new BigInt64Array(buffer);
  }

  /** One call answered; a tool this table does not know is not counted. */
  count(tool: string, outcome: McpCallOutcome): void {
    const index = TOOLS.indexOf(tool as (typeof TOOLS)[number]);
    if (index >= 0) Atomics.add(this.cells, index * OUTCOMES.length + (outcome === 'ok' ? 0 : 1), 1n);
  }

  /** Every tool and outcome with its count so far, all threads together. */
  read(): McpCallCount[] {
    return TOOLS.flatMap((tool, t) => OUTCOMES.map((outcome, o) => ({ tool, outcome, count: Number(Atomics.load(this.cells, t * OUTCOMES.length + o)) })));
  }
}
