import Table from 'cli-table3';

/**
 * Columns padded to their widest cell and two spaces apart, without borders or colours: the output
 * of `warden` and of the benchmarks stays plain text that reads, pastes and greps well.
 * `underline` draws a dashed rule under the header.
 */
export function formatTable(head: string[], rows: string[][], opts: { underline?: boolean } = {}): string {
  const rule = opts.underline ? '-' : '';
  const table = new Table({
    head,
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: rule,
      'mid-mid': rule && '  ',
      right: '',
      'right-mid': '',
      middle: '  ',
    },
    // compact: a rule under the header only, none between rows.
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
  });
  table.push(...rows);
  return table.toString();
}
