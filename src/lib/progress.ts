// Progress of long CLI work: a bar redrawn in place on a terminal, a line per step otherwise (logs
// and pipes should not fill with carriage returns).

export interface ProgressReporter {
  /** A new step begins (printed once). */
  step(label: string): void;
  /** How far the current step is, 0…1. */
  update(fraction: number): void;
  /** Ends the bar; the summary goes on its own line. */
  done(summary: string): void;
}

export function progressReporter(stream: NodeJS.WriteStream = process.stderr, out: NodeJS.WriteStream = process.stdout): ProgressReporter {
  const tty = Boolean(stream.isTTY);
  let label = '';
  let drawn = false;
  const clear = () => {
    if (tty && drawn) stream.write('\r\x1b[2K');
    drawn = false;
  };
  return {
    step(next) {
      if (next === label) return;
      clear();
      label = next;
      stream.write(tty ? `${label}…` : `${label}…\n`);
      drawn = tty;
    },
    update(fraction) {
      if (!tty) return;
      const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - label.length - 12));
      const filled = Math.round(Math.max(0, Math.min(1, fraction)) * width);
      stream.write(`\r\x1b[2K${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.floor(fraction * 100)}%`);
      drawn = true;
    },
    done(summary) {
      clear();
      out.write(`${summary}\n`);
    },
  };
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let n = bytes;
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${i === 0 ? n : n.toFixed(1)} ${units[i]}`;
}
