import { useEffect, useRef } from 'react';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LineController,
  LineElement,
  LinearScale,
  PointElement,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';

// Only the pieces these charts use, so the rest of Chart.js stays out of the build.
Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  Filler,
  Legend,
  LineController,
  LineElement,
  LinearScale,
  PointElement,
  Tooltip,
);

export interface Series {
  label: string;
  values: Array<number | null>;
  /** A token of styles.css naming its colour. */
  color: string;
  dashed?: boolean;
  /** Stacked and filled (cumulative flow). */
  area?: boolean;
}

export interface ChartSpec {
  kind: 'line' | 'bar';
  labels: string[];
  series: Series[];
  stacked?: boolean;
  yTitle?: string;
}

/** The value of a colour token now (it differs between the light and dark themes). */
const token = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';

/** `#rrggbb` at `alpha`, for the filled areas (the tokens are hex colours). */
function faded(hex: string, alpha: number): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  return m ? `rgba(${parseInt(m[1]!, 16)}, ${parseInt(m[2]!, 16)}, ${parseInt(m[3]!, 16)}, ${alpha})` : hex;
}

/** Extra colours for series beyond the named ones (statuses, types), readable on both themes. */
export const PALETTE = ['--accent', '--ok', '--warn', '--danger', '--cat-todo', '--label-text', '--line-strong'];

function configOf(spec: ChartSpec): ChartConfiguration {
  const text = token('--muted');
  const grid = token('--line');
  return {
    type: spec.kind,
    data: {
      labels: spec.labels,
      datasets: spec.series.map((s) => {
        const color = token(s.color);
        return {
          label: s.label,
          data: s.values,
          borderColor: color,
          backgroundColor: s.area ? faded(color, 0.35) : color,
          borderDash: s.dashed ? [6, 4] : undefined,
          borderWidth: 2,
          pointRadius: spec.labels.length > 40 ? 0 : 2,
          fill: s.area ? (spec.series.indexOf(s) === 0 ? 'origin' : '-1') : false,
          spanGaps: true,
        };
      }),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      // Numbers change when the filters do; an animation would only delay reading them.
      animation: false,
      interaction: { mode: 'index', intersect: false },
      plugins: { legend: { labels: { color: text, boxWidth: 12 } }, tooltip: { enabled: true } },
      scales: {
        x: { stacked: spec.stacked, ticks: { color: text, maxRotation: 0, autoSkip: true }, grid: { color: grid } },
        y: {
          stacked: spec.stacked,
          beginAtZero: true,
          ticks: { color: text },
          grid: { color: grid },
          title: spec.yTitle ? { display: true, text: spec.yTitle, color: text } : undefined,
        },
      },
    },
  } as ChartConfiguration;
}

/**
 * A Chart.js chart on a canvas, drawn again when its numbers or the theme change. The canvas is
 * an image to assistive technology, labelled by `label`; the same numbers are in the table next to it.
 */
export function ChartView({ spec, label }: { spec: ChartSpec; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    let chart = new Chart(canvas.current, configOf(spec));
    const redraw = () => {
      chart.destroy();
      chart = new Chart(canvas.current!, configOf(spec));
    };
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    window.addEventListener('tt:theme', redraw);
    media.addEventListener('change', redraw);
    return () => {
      window.removeEventListener('tt:theme', redraw);
      media.removeEventListener('change', redraw);
      chart.destroy();
    };
  }, [spec]);
  return (
    <div className="chart-box">
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}
