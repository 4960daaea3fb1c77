import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearch, useLocation } from 'wouter';
import type { StandupEntry } from '../../lib/api-types.ts';
import { useNameOf, usePeople } from '../people/use-people.ts';
import { useMe } from '../session/session-provider.tsx';
import { ErrorNote, Field, Spinner, formatDate, formatDateTime, useNotify } from '../../ui/index.ts';
import { Markdown } from '../../ui/markdown.tsx';
import {
  blockersQuery,
  historyQuery,
  myEntryQuery,
  redraftEntry,
  skipToday,
  standupKeys,
  submitEntry,
  teamDayQuery,
} from './api.ts';
import { StandupSettingsForm } from './standup-settings.tsx';

const TABS = [
  { id: 'me', label: 'My check-in' },
  { id: 'team', label: 'Team day' },
  { id: 'blockers', label: 'Blockers' },
  { id: 'history', label: 'History' },
  { id: 'settings', label: 'Schedule' },
] as const;

export function Standups() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const tab = new URLSearchParams(search).get('tab') ?? 'me';
  return (
    <section className="page" aria-labelledby="standups-title">
      <header className="screen-head">
        <h1 id="standups-title">Standups</h1>
        <nav className="tabs" aria-label="Standup views">
          {TABS.map((t) => (
            <a
              key={t.id}
              href={`/standups?tab=${t.id}`}
              aria-current={tab === t.id ? 'page' : undefined}
              onClick={(e) => {
                e.preventDefault();
                navigate(`/standups?tab=${t.id}`);
              }}
            >
              {t.label}
            </a>
          ))}
        </nav>
      </header>
      {tab === 'team' ? (
        <TeamDay />
      ) : tab === 'blockers' ? (
        <Blockers />
      ) : tab === 'history' ? (
        <History />
      ) : tab === 'settings' ? (
        <StandupSettingsForm />
      ) : (
        <CheckIn />
      )}
    </section>
  );
}

function useMyEntry() {
  return useQuery(myEntryQuery);
}

/** Puts a saved entry in place of today's and refreshes the team's views of it. */
function useStoreEntry() {
  const client = useQueryClient();
  return (saved: StandupEntry) => {
    client.setQueryData(standupKeys.mine, saved);
    void client.invalidateQueries({ queryKey: standupKeys.all });
  };
}

type BlockerDraft = { text: string; task: string };

/** Nothing written today yet: the digest's link may draft it. */
const untouched = (entry: StandupEntry | null) =>
  entry === null || (entry.state === 'draft' && !entry.done && !entry.doing && entry.blockers.length === 0);

function CheckIn() {
  const notify = useNotify();
  const today = useMyEntry();
  const refresh = useStoreEntry();
  const prefill = usePrefill(today.isSuccess ? today.data : undefined, refresh);
  const [done, setDone] = useState('');
  const [doing, setDoing] = useState('');
  const [blockers, setBlockers] = useState<BlockerDraft[]>([]);
  const entry = today.data ?? null;
  useEffect(() => {
    setDone(entry?.done ?? '');
    setDoing(entry?.doing ?? '');
    setBlockers(entry?.blockers.map((b) => ({ text: b.text, task: b.task ?? '' })) ?? []);
  }, [entry]);
  const submit = useMutation({
    mutationFn: () =>
      submitEntry({
        done,
        doing,
        blockers: blockers.filter((b) => b.text.trim()).map((b) => ({ text: b.text, task: b.task.trim() || null })),
      }),
    meta: { quiet: true },
    onSuccess: (saved) => {
      refresh(saved);
      notify({ kind: 'info', message: 'Check-in submitted.' });
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit.mutate();
  };
  if (today.isPending) return <Spinner />;
  const state = entry?.state ?? 'none';
  return (
    <section aria-labelledby="checkin-title">
      <h2 id="checkin-title">
        Today{entry ? `, ${formatDate(entry.date)}` : ''}:{' '}
        <span className={`state state-${state}`}>{state === 'none' ? 'not started' : state}</span>
      </h2>
      <ErrorNote error={today.error ?? prefill} />
      <RedraftOrSkip submitted={state === 'submitted'} onSaved={refresh} />
      <form className="stack" onSubmit={onSubmit}>
        <Field label="Done since last time">
          {(id) => <textarea id={id} rows={5} value={done} onChange={(e) => setDone(e.target.value)} />}
        </Field>
        <Field label="Doing today">
          {(id) => <textarea id={id} rows={5} value={doing} onChange={(e) => setDoing(e.target.value)} />}
        </Field>
        <BlockerFields blockers={blockers} setBlockers={setBlockers} />
        <ErrorNote error={submit.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={submit.isPending}>
            {state === 'submitted' ? 'Update check-in' : 'Submit check-in'}
          </button>
        </div>
      </form>
      {entry?.state === 'submitted' && entry.tasks.length ? (
        <section aria-labelledby="frozen-title">
          <h3 id="frozen-title">Worklist as submitted</h3>
          <TaskSnapshot entry={entry} />
        </section>
      ) : null}
    </section>
  );
}

/**
 * The standup digest links to `?prefill=1`: today's check-in drafted from the person's activity,
 * unless they have written or decided something today already. The address then drops the flag,
 * so going back or reloading drafts nothing again.
 */
function usePrefill(entry: StandupEntry | null | undefined, onSaved: (saved: StandupEntry) => void) {
  const search = useSearch();
  const [, navigate] = useLocation();
  const wanted = new URLSearchParams(search).get('prefill') === '1';
  const draft = useMutation({ mutationFn: redraftEntry, meta: { quiet: true }, onSuccess: onSaved });
  const { mutate } = draft;
  useEffect(() => {
    if (!wanted || entry === undefined) return;
    navigate('/standups?tab=me', { replace: true });
    if (untouched(entry)) mutate();
  }, [wanted, entry, navigate, mutate]);
  return draft.error;
}

/** Today's entry drafted again from the person's activity, or skipped; neither once it is submitted. */
function RedraftOrSkip({ submitted, onSaved }: { submitted: boolean; onSaved: (saved: StandupEntry) => void }) {
  const redraft = useMutation({
    mutationFn: redraftEntry,
    meta: { quiet: true },
    onSuccess: onSaved,
  });
  const skip = useMutation({
    mutationFn: skipToday,
    meta: { quiet: true },
    onSuccess: onSaved,
  });
  return (
    <>
      <div className="actions">
        <button type="button" onClick={() => redraft.mutate()} disabled={redraft.isPending || submitted}>
          Redraft from my activity
        </button>
        <button type="button" onClick={() => skip.mutate()} disabled={skip.isPending || submitted}>
          Skip today
        </button>
      </div>
      <ErrorNote error={redraft.error ?? skip.error} />
    </>
  );
}

function BlockerFields({
  blockers,
  setBlockers,
}: {
  blockers: BlockerDraft[];
  setBlockers: (blockers: BlockerDraft[]) => void;
}) {
  return (
    <fieldset>
      <legend>Blockers</legend>
      {blockers.map((b, i) => (
        <div className="blocker-row" key={i}>
          <label>
            <span>Blocker {i + 1}</span>
            <input
              value={b.text}
              onChange={(e) => setBlockers(blockers.map((x, j) => (j === i ? { ...x, text: e.target.value } : x)))}
            />
          </label>
          <label>
            <span>Task (optional)</span>
            <input
              value={b.task}
              placeholder="WEB-12"
              onChange={(e) => setBlockers(blockers.map((x, j) => (j === i ? { ...x, task: e.target.value } : x)))}
            />
          </label>
          <button type="button" className="link" onClick={() => setBlockers(blockers.filter((_, j) => j !== i))}>
            Remove blocker {i + 1}
          </button>
        </div>
      ))}
      <button type="button" onClick={() => setBlockers([...blockers, { text: '', task: '' }])}>
        Add a blocker
      </button>
    </fieldset>
  );
}

function TaskSnapshot({ entry }: { entry: StandupEntry }) {
  return (
    <ul className="plain">
      {entry.tasks.map((t) => (
        <li key={t.key}>
          <Link href={`/t/${t.key}`}>{t.key}</Link> {t.title} <span className="chip">{t.status}</span>
        </li>
      ))}
    </ul>
  );
}

function EntryCard({ entry, name }: { entry: StandupEntry; name: string }) {
  return (
    <article className="entry" aria-label={`${name}, ${formatDate(entry.date)}`}>
      <h3>
        {name} <span className={`state state-${entry.state}`}>{entry.state}</span>{' '}
        <span className="muted">{formatDateTime(entry.submitted_at)}</span>
      </h3>
      {entry.state === 'skipped' ? (
        <p className="muted">Skipped.</p>
      ) : (
        <>
          <h4>Done</h4>
          {entry.done ? <Markdown text={entry.done} /> : <p className="muted">—</p>}
          <h4>Doing</h4>
          {entry.doing ? <Markdown text={entry.doing} /> : <p className="muted">—</p>}
          {entry.blockers.length ? (
            <>
              <h4>Blockers</h4>
              <ul>
                {entry.blockers.map((b, i) => (
                  <li key={i}>
                    {b.text} {b.task ? <Link href={`/t/${b.task}`}>{b.task}</Link> : null}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {entry.tasks.length ? (
            <details>
              <summary>Worklist ({entry.tasks.length})</summary>
              <TaskSnapshot entry={entry} />
            </details>
          ) : null}
        </>
      )}
    </article>
  );
}

function TeamDay() {
  const [date, setDate] = useState('');
  const nameOf = useNameOf();
  const entries = useQuery(teamDayQuery(date));
  return (
    <section aria-labelledby="team-title">
      <h2 id="team-title">The team's day</h2>
      <Field label="Day" hint="Empty means today in the team's timezone.">
        {(id) => <input id={id} type="date" value={date} onChange={(e) => setDate(e.target.value)} />}
      </Field>
      <ErrorNote error={entries.error} />
      {entries.isPending ? <Spinner /> : null}
      {entries.data?.length === 0 ? <p>Nobody has checked in for this day yet.</p> : null}
      <div className="entries">
        {entries.data?.map((e) => (
          <EntryCard key={e.id} entry={e} name={nameOf(e.user)} />
        ))}
      </div>
    </section>
  );
}

function Blockers() {
  const nameOf = useNameOf();
  const blockers = useQuery(blockersQuery);
  return (
    <section aria-labelledby="blockers-title">
      <h2 id="blockers-title">What blocks the team</h2>
      <ErrorNote error={blockers.error} />
      {blockers.data?.length === 0 ? <p>No blockers. </p> : null}
      <ul className="plain blockers">
        {blockers.data?.map((b, i) => (
          <li key={i}>
            <strong>{b.task ? <Link href={`/t/${b.task}`}>{b.task}</Link> : null}</strong> {b.text}
            {b.blocked_by ? (
              <>
                {' '}
                blocked by <Link href={`/t/${b.blocked_by}`}>{b.blocked_by}</Link>
              </>
            ) : null}
            <span className="muted">
              {' '}
              — {b.source === 'standup' ? `said by ${nameOf(b.declared_by)}` : 'dependency link'}, since{' '}
              {formatDate(b.since)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function History() {
  const me = useMe();
  const [user, setUser] = useState(String(me.user.id));
  const people = usePeople();
  const nameOf = useNameOf();
  const history = useQuery(historyQuery(user));
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <Field label="Person">
        {(id) => (
          <select id={id} value={user} onChange={(e) => setUser(e.target.value)}>
            <option value={me.user.id}>{me.user.name} (me)</option>
            {people.data
              ?.filter((p) => p.id !== me.user.id)
              .map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
          </select>
        )}
      </Field>
      <p className="muted">Entries before today, as they were submitted: later changes to tasks never alter them.</p>
      <ErrorNote error={history.error} />
      {history.data?.length === 0 ? <p>No earlier entries.</p> : null}
      <div className="entries">
        {history.data?.map((e) => (
          <EntryCard key={e.id} entry={e} name={`${nameOf(e.user)}, ${formatDate(e.date)}`} />
        ))}
      </div>
    </section>
  );
}
