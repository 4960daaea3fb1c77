import { Link } from 'wouter';
import type { Project } from '../../lib/api-types.ts';

/** A project screen's title, its views (board, list, calendar, timeline, reports, settings) and the New task button. */
export function ProjectTabs({
  project,
  current,
  titleId,
}: {
  project: Project;
  current: 'board' | 'list' | 'calendar' | 'timeline' | 'reports';
  titleId: string;
}) {
  return (
    <header className="screen-head">
      <h1 id={titleId}>
        {project.name} <span className="muted">{project.key}</span>
      </h1>
      <nav aria-label="Project views" className="tabs">
        <Link href={`/p/${project.key}/board`} aria-current={current === 'board' ? 'page' : undefined}>
          Board
        </Link>
        <Link href={`/p/${project.key}/list`} aria-current={current === 'list' ? 'page' : undefined}>
          List
        </Link>
        {(['calendar', 'timeline', 'reports'] as const).map((view) => (
          <Link key={view} href={`/p/${project.key}/${view}`} aria-current={current === view ? 'page' : undefined}>
            {view[0]!.toUpperCase() + view.slice(1)}
          </Link>
        ))}
        <Link href={`/p/${project.key}/settings`}>Settings</Link>
      </nav>
      <button
        type="button"
        className="primary"
        onClick={() => window.dispatchEvent(new CustomEvent('tt:new-task', { detail: { project: project.key } }))}
      >
        New task <kbd>c</kbd>
      </button>
    </header>
  );
}
