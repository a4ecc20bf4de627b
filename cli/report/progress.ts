/**
 * Progress on stderr: a redrawn bar on a terminal, plain lines in CI logs (at most one per 10 %
 * of the work or per 5 s), nothing with --quiet.
 */

export interface Progress {
  start(label: string, total: number): void;
  update(done: number, detail?: string): void;
  done(message: string): void;
  /** A message between updates (a retry, a warning); the bar is redrawn below it. */
  log(message: string): void;
}

export interface ProgressStream {
  write(chunk: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export const silentProgress: Progress = { start() {}, update() {}, done() {}, log() {} };

export function createProgress(
  stream: ProgressStream,
  mode: 'bar' | 'lines' | 'off',
  now = Date.now,
): Progress {
  if (mode === 'off') return silentProgress;
  let label = '';
  let total = 0;
  let last = 0;
  let lastFraction = 0;
  let drawn = false;
  if (mode === 'bar') {
    let lastDone = 0;
    let lastDetail: string | undefined;
    const draw = (done: number, detail?: string) => {
      lastDone = done;
      lastDetail = detail;
      const columns = stream.columns || 80;
      const count = `${done}/${total}`;
      // The counts always show; the bar shrinks on narrow terminals and the detail is cut last.
      const width = Math.max(0, Math.min(24, columns - label.length - count.length - 5));
      const fraction = total > 0 ? Math.min(1, done / total) : 1;
      const filled = Math.round(fraction * width);
      const bar = width > 0 ? ` [${'#'.repeat(filled)}${'-'.repeat(width - filled)}]` : '';
      let line = `${label}${bar} ${count}${detail ? ` ${detail}` : ''}`;
      if (line.length > columns - 1)
        line = line.slice(0, Math.max(columns - 1, label.length + count.length + 1));
      stream.write(`\r\x1b[2K${line}`);
      drawn = true;
    };
    return {
      start(l, t) {
        label = l;
        total = t;
        last = 0;
        draw(0);
      },
      update(done, detail) {
        const t = now();
        if (done < total && t - last < 100) return;
        last = t;
        draw(done, detail);
      },
      done(message) {
        stream.write(`${drawn ? '\r\x1b[2K' : ''}${message}\n`);
        drawn = false;
      },
      log(message) {
        const redraw = drawn;
        stream.write(`${drawn ? '\r\x1b[2K' : ''}${message}\n`);
        drawn = false;
        if (redraw) draw(lastDone, lastDetail);
      },
    };
  }
  return {
    start(l, t) {
      label = l;
      total = t;
      last = now();
      lastFraction = 0;
      stream.write(`${label}: 0/${total}\n`);
    },
    update(done, detail) {
      const t = now();
      const fraction = total > 0 ? done / total : 1;
      if (fraction - lastFraction < 0.1 && t - last < 5000) return;
      last = t;
      lastFraction = fraction;
      stream.write(`${label}: ${done}/${total}${detail ? ` (${detail})` : ''}\n`);
    },
    done(message) {
      stream.write(`${message}\n`);
    },
    log(message) {
      stream.write(`${message}\n`);
    },
  };
}
