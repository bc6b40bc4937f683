import { useState, type FormEvent } from 'react';
import { format, isValid, parseISO } from 'date-fns';
import { useSearchParams } from 'react-router';

// The time range of the analytics pages, kept in the query string (`range=1h|24h|7d|30d`, or
// `range=custom&from=<ISO>&to=<ISO>`) so that a link reproduces the view.

export const PRESETS = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
} as const;
export type Preset = keyof typeof PRESETS;
const PRESET_LABELS: Record<Preset, string> = { '1h': '1 h', '24h': '24 h', '7d': '7 d', '30d': '30 d' };

const isPreset = (v: string | null): v is Preset => v !== null && v in PRESETS;
const parsed = (v: string | null) => (v ? parseISO(v) : undefined);
/** What a datetime-local input shows: local time to the minute. */
const local = (d: Date) => format(d, "yyyy-MM-dd'T'HH:mm");

export interface TimeRange {
  range: Preset | 'custom';
  /** Changes whenever the range does: part of every query key. */
  key: string;
  /** [from, to) as it stands now: a preset ends now, a custom range is fixed. */
  window: () => { from: Date; to: Date };
  /** A chart's bucket: days beyond two days, else hours. */
  interval: 'hour' | 'day';
  /** The query-string part (without `?`) that gives another page this range; '' for the default. */
  search: string;
  /** `from=…&to=…` of the range as it stands now, for an API call. */
  apiRange: () => string;
}

export function useTimeRange(fallback: Preset = '24h'): TimeRange {
  const [params] = useSearchParams();
  const asked = params.get('range');
  const from = parsed(params.get('from'));
  const to = parsed(params.get('to'));
  const custom =
    asked === 'custom' && from && to && isValid(from) && isValid(to) && from.getTime() < to.getTime();
  const range: Preset | 'custom' = custom ? 'custom' : isPreset(asked) ? asked : fallback;
  const span = custom ? to.getTime() - from.getTime() : PRESETS[range as Preset];
  const window = () => {
    if (custom) return { from, to };
    const now = new Date();
    return { from: new Date(now.getTime() - span), to: now };
  };
  const search = custom
    ? `range=custom&from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`
    : range === fallback
      ? ''
      : `range=${range}`;
  return {
    range,
    key: custom ? `${from.toISOString()}/${to.toISOString()}` : range,
    window,
    interval: span > 2 * 86_400_000 ? 'day' : 'hour',
    search,
    apiRange: () => {
      const w = window();
      return `from=${encodeURIComponent(w.from.toISOString())}&to=${encodeURIComponent(w.to.toISOString())}`;
    },
  };
}

/** The range buttons (1 h … 30 d, Custom) and, for a custom range, its from and to inputs. */
export function TimeRangePicker({ range, fallback = '24h' }: { range: TimeRange; fallback?: Preset }) {
  const [params, setParams] = useSearchParams();
  const [editing, setEditing] = useState(range.range === 'custom');
  const current = range.window();
  const [from, setFrom] = useState(() => local(current.from));
  const [to, setTo] = useState(() => local(current.to));
  const [error, setError] = useState('');

  const choose = (preset: Preset) => {
    setEditing(false);
    setParams((p) => {
      p.delete('from');
      p.delete('to');
      if (preset === fallback) p.delete('range');
      else p.set('range', preset);
      return p;
    });
  };
  const apply = (e: FormEvent) => {
    e.preventDefault();
    // datetime-local values are local time; the URL keeps UTC ISO instants.
    const f = parseISO(from);
    const t = parseISO(to);
    if (!isValid(f) || !isValid(t) || f.getTime() >= t.getTime()) {
      setError('“From” must be a date and time before “To”.');
      return;
    }
    setError('');
    const next = new URLSearchParams(params);
    next.set('range', 'custom');
    next.set('from', f.toISOString());
    next.set('to', t.toISOString());
    setParams(next);
  };
  return (
    <div className="range-picker">
      <div className="segmented" role="group" aria-label="Time range">
        {(Object.keys(PRESETS) as Preset[]).map((r) => (
          <button
            key={r}
            type="button"
            aria-pressed={!editing && r === range.range}
            onClick={() => choose(r)}
          >
            {PRESET_LABELS[r]}
          </button>
        ))}
        <button
          type="button"
          aria-pressed={editing || range.range === 'custom'}
          aria-expanded={editing}
          onClick={() => setEditing(true)}
        >
          Custom
        </button>
      </div>
      {editing ? (
        <form className="custom-range" onSubmit={apply} aria-label="Custom time range">
          <label>
            From
            <input type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} required />
          </label>
          <label>
            To
            <input type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} required />
          </label>
          <button type="submit">Apply range</button>
          {error ? (
            <span className="notice error" role="alert">
              {error}
            </span>
          ) : null}
        </form>
      ) : null}
    </div>
  );
}
