import { formatDuration } from '../../../../core/durations.ts';
import type { SprintReport } from '../../../../modules/boards/index.ts';
import { table } from '../../../components/index.ts';
import { html, type Html } from '../../../html.ts';

export type Measure = 'tickets' | 'estimate';

const WIDTH = 640;
const HEIGHT = 260;
const PAD = { left: 48, right: 16, top: 16, bottom: 40 };

const measured = (day: SprintReport['burndown'][number], by: Measure) => (by === 'tickets' ? day.tickets : day.remaining_seconds);
const shown = (value: number, by: Measure) => (by === 'tickets' ? String(value) : value === 0 ? '0m' : formatDuration(value));

/**
 * The burndown as an SVG drawn on the server (WEB.md §2): what remained at each day's end, and the
 * guideline from the first day's value to none on the last day. The picture is described by its
 * title and summary; the numbers are in the table beside it.
 */
export function burndownSvg(report: SprintReport, by: Measure): Html {
  const days = report.burndown;
  const values = days.map((d) => measured(d, by));
  const highest = Math.max(1, ...values.map((v) => v ?? 0));
  const x = (i: number) => PAD.left + (days.length <= 1 ? 0 : (i * (WIDTH - PAD.left - PAD.right)) / (days.length - 1));
  const y = (v: number) => PAD.top + (HEIGHT - PAD.top - PAD.bottom) * (1 - v / highest);
  const points = values.flatMap((v, i) => (v === null ? [] : [`${x(i).toFixed(1)},${y(v).toFixed(1)}`])).join(' ');
  const first = values[0] ?? 0;
  const last = values.filter((v): v is number => v !== null).at(-1) ?? 0;
  const what = by === 'tickets' ? 'tickets not done' : 'remaining estimate';
  const summary = `${days.length} days from ${days[0]?.date ?? '—'} to ${days.at(-1)?.date ?? '—'}: ${what} from ${shown(first, by)} to ${shown(last, by)}.`;
  const ticks = [...new Set([0, Math.round(highest / 2), highest])];
  return html`<svg class="burndown" role="img" aria-labelledby="burndown-title burndown-summary" viewBox="0 0 ${String(WIDTH)} ${String(HEIGHT)}" width="100%" preserveAspectRatio="xMidYMid meet">
<title id="burndown-title">Burndown: ${what} by day</title><desc id="burndown-summary">${summary}</desc>
<g stroke="currentColor" stroke-opacity="0.35" stroke-width="1">${ticks.map(
    (t) => html`<line x1="${String(PAD.left)}" x2="${String(WIDTH - PAD.right)}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}"/>`,
  )}</g>
<g fill="currentColor" font-size="12">${ticks.map(
    (t) => html`<text x="${String(PAD.left - 6)}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end">${shown(t, by)}</text>`,
  )}<text x="${String(PAD.left)}" y="${String(HEIGHT - 12)}">${days[0]?.date ?? ''}</text><text x="${String(WIDTH - PAD.right)}" y="${String(HEIGHT - 12)}" text-anchor="end">${days.at(-1)?.date ?? ''}</text></g>
<line x1="${x(0).toFixed(1)}" y1="${y(first).toFixed(1)}" x2="${x(days.length - 1).toFixed(1)}" y2="${y(0).toFixed(1)}" stroke="currentColor" stroke-opacity="0.6" stroke-width="1.5" stroke-dasharray="6 4"/>
<polyline points="${points}" fill="none" stroke="currentColor" stroke-width="2.5"/>
</svg>`;
}

/** The chart's numbers, readable without the picture. */
export function burndownTable(report: SprintReport): Html {
  return table(
    [
      { header: 'Day', cell: (d) => d.date },
      { header: 'Tickets not done', cell: (d) => (d.tickets === null ? '—' : String(d.tickets)) },
      { header: 'Remaining estimate', cell: (d) => (d.remaining_seconds === null ? '—' : shown(d.remaining_seconds, 'estimate')) },
    ],
    report.burndown,
    { id: 'burndown-table', caption: 'Burndown by day (at the end of each day, UTC)' },
  );
}
