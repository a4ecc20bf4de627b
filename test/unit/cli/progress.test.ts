import { createProgress } from '../../../cli/report/progress';
import { sink } from './fake-api';

describe('progress', () => {
  it('draws a bar on a terminal, keeps the counts on narrow ones, and redraws it under a message', () => {
    const out = sink(true);
    const p = createProgress(out, 'bar', () => 0);
    p.start('Looking up', 740);
    p.update(740);
    p.log('POST /v1/bulk: 429; retrying in 1.0 s');
    p.done('Looked up 740 packages');
    expect(out.text()).toBe(
      '\r\x1b[2KLooking up [------------------------] 0/740' +
        '\r\x1b[2KLooking up [########################] 740/740' +
        '\r\x1b[2KPOST /v1/bulk: 429; retrying in 1.0 s\n' +
        '\r\x1b[2KLooking up [########################] 740/740' +
        '\r\x1b[2KLooked up 740 packages\n',
    );
    const narrow = { ...sink(true), columns: 24 };
    let text = '';
    narrow.write = (s: string) => ((text += s), true);
    const q = createProgress(narrow, 'bar', () => 0);
    q.start('Looking up', 740);
    expect(text).toContain('0/740');
  });

  it('prints plain lines in CI logs, at most one per 10 % of the work or per 5 s', () => {
    const out = sink(false);
    let t = 0;
    const p = createProgress(out, 'lines', () => t);
    p.start('Waiting for scans', 100);
    for (let done = 1; done <= 100; done++) p.update(done);
    t = 6000;
    p.update(100, '100 done');
    p.done('Scans: 100 completed');
    const lines = out.text().trimEnd().split('\n');
    expect(lines[0]).toBe('Waiting for scans: 0/100');
    expect(lines.length).toBeLessThanOrEqual(13);
    expect(lines.at(-2)).toBe('Waiting for scans: 100/100 (100 done)');
    expect(lines.at(-1)).toBe('Scans: 100 completed');
  });

  it('prints nothing when off', () => {
    const out = sink(false);
    const p = createProgress(out, 'off');
    p.start('x', 1);
    p.update(1);
    p.log('y');
    p.done('z');
    expect(out.text()).toBe('');
  });
});
