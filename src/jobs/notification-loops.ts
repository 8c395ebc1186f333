// The background loops of one instance: the scheduler ticking on the injected clock, and the
// delivery worker. app.ts builds them; server.ts starts them; closing the app stops them.
import type { Clock } from '../lib/clock.ts';
import type { DeliveryWorker } from './delivery-worker.ts';
import { ENQUEUE_AHEAD_MS, type Scheduler } from './scheduler.ts';

/** The background loops of one instance: started by server.ts, stopped when the app closes. */
export class NotificationLoops {
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<unknown>;
  private running = false;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly worker: DeliveryWorker,
    private readonly clock: Clock,
    private readonly tickMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.worker.start();
    const loop = () => {
      this.ticking = this.scheduler
        .tick(ENQUEUE_AHEAD_MS)
        .catch(this.onError)
        .finally(() => {
          // Aligned to the period on the injected clock, so a slot at hh:mm:00 is picked up at once.
          if (this.running) this.timer = setTimeout(loop, this.tickMs - (this.clock.now().getTime() % this.tickMs));
        });
    };
    loop();
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearTimeout(this.timer);
    await this.ticking;
    await this.worker.stop();
  }
}
