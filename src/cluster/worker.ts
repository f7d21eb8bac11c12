// Which background jobs run on this replica (src/feature.ts, BackgroundJob): those over its own files
// always; those over the cluster's shared state (DATABASE_URL) only while it holds the worker lease
// (worker-lease.ts), started when it takes the lease and stopped when it loses it. Without DATABASE_URL
// there is no lease: every install is its own worker and runs every job, as before there were replicas.
import type { BackgroundJob } from '../feature.js';
import type { LeaseStatus, WorkerLease } from './worker-lease.js';
import type { Logger } from '../log.js';

/** /status `worker`: whether this replica runs the cluster's background work, and the lease it holds for it. */
export interface WorkerStatus {
  this_replica: boolean;
  /** The jobs running here now, by name. */
  jobs: string[];
  /** The lease with DATABASE_URL; null without it (this install is its own worker). */
  lease: LeaseStatus | null;
}

export class ClusterWorker {
  private readonly running = new Set<BackgroundJob>();

  private jobs: readonly BackgroundJob[] = [];

  constructor(
    /** The lease with DATABASE_URL (its events: `taken`, `lost`, `tried`); null without it. */
    readonly lease: WorkerLease | null,
    private readonly log: Logger,
  ) {}

  /** Whether this replica runs the jobs over shared state now. */
  get isWorker(): boolean {
    return this.lease === null || this.lease.held;
  }

  /** Starts `jobs` (the features', once they are served): each as it declares where it runs. */
  start(jobs: readonly BackgroundJob[]): void {
    this.jobs = jobs;
    this.startJobs('every-replica');
    if (this.lease === null) return this.startJobs('cluster-worker');
    this.lease.on('taken', () => this.startJobs('cluster-worker'));
    this.lease.on('lost', () => void this.stopJobs('cluster-worker'));
    this.lease.start();
  }

  status(): WorkerStatus {
    return { this_replica: this.isWorker, jobs: [...this.running].map((job) => job.name), lease: this.lease?.status() ?? null };
  }

  /** Stops every job, then gives the lease up, so another replica starts them at once. */
  async close(): Promise<void> {
    await this.stopJobs('every-replica');
    await this.stopJobs('cluster-worker');
    await this.lease?.close();
  }

  private startJobs(runsOn: BackgroundJob['runsOn']): void {
    for (const job of this.jobs) {
      if (job.runsOn !== runsOn || this.running.has(job)) continue;
      job.start();
      this.running.add(job);
    }
  }

  private async stopJobs(runsOn: BackgroundJob['runsOn']): Promise<void> {
    for (const job of [...this.running]) {
      if (job.runsOn !== runsOn) continue;
      this.running.delete(job);
      await Promise.resolve(job.stop()).catch((error: unknown) => this.log.error(`stopping the background job ${job.name} failed`, { error: String(error) }));
    }
  }
}
