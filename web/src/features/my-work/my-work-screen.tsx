import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { Category, Task } from '../../lib/api-types.ts';
import { useProjects } from '../projects/use-project.ts';
import { useMe } from '../session/session-provider.tsx';
import { ErrorNote, Spinner, categoryLabel, formatDate } from '../../ui/index.ts';
import { myWorkQuery } from './api.ts';

const ORDER: Category[] = ['in_progress', 'todo', 'done'];

/** Due soon first, undated last, then oldest key first. */
const byDue = (a: Task, b: Task) =>
  (a.due_date ?? '9999').localeCompare(b.due_date ?? '9999') || a.created_at.localeCompare(b.created_at);

/** What is assigned to me in every project I can see, grouped by status category. */
export function MyWork() {
  const me = useMe();
  const projects = useProjects();
  const tasks = useQuery({ ...myWorkQuery(me.user.id, projects.data ?? []), enabled: Boolean(projects.data) });
  const today = new Date().toISOString().slice(0, 10);
  return (
    <section className="page" aria-labelledby="mywork-title">
      <header className="screen-head">
        <h1 id="mywork-title">My work</h1>
      </header>
      <ErrorNote error={projects.error ?? tasks.error} />
      {tasks.isPending ? <Spinner /> : null}
      {tasks.data?.length === 0 ? <p>Nothing is assigned to you.</p> : null}
      {ORDER.map((category) => {
        const group = (tasks.data ?? []).filter((t) => t.status_category === category).sort(byDue);
        if (!group.length) return null;
        return (
          <section key={category} aria-labelledby={`mine-${category}`}>
            <h2 id={`mine-${category}`}>
              {categoryLabel[category]} <span className="muted">{group.length}</span>
            </h2>
            <ul className="work-list" role="list">
              {group.map((t) => (
                <li key={t.key}>
                  <Link href={`/t/${t.key}`} data-nav-item="">
                    <span className="key">{t.key}</span> {t.title}
                  </Link>
                  <span className="chip">{t.status}</span>
                  {t.due_date ? (
                    <span className={t.due_date < today && category !== 'done' ? 'due overdue' : 'due'}>
                      Due {formatDate(t.due_date)}
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </section>
  );
}
