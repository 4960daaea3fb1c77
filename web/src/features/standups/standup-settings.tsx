import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StandupSettings } from '../../lib/api-types.ts';
import { useMe } from '../session/session-provider.tsx';
import { ErrorNote, Field, Form, Spinner, useNotify } from '../../ui/index.ts';
import { saveStandupSettings, standupKeys, standupSettingsQuery } from './api.ts';

type Weekday = StandupSettings['days'][number];

const WEEKDAYS = [
  ['mon', 'Monday'],
  ['tue', 'Tuesday'],
  ['wed', 'Wednesday'],
  ['thu', 'Thursday'],
  ['fri', 'Friday'],
  ['sat', 'Saturday'],
  ['sun', 'Sunday'],
] as const;
/** The service takes 1 to 10 questions. */
const MAX_QUESTIONS = 10;

const zones = (): string[] => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [];
  }
};

/** The team's standup day: timezone, standup days, reminder time and questions. Owners and admins change it. */
export function StandupSettingsForm() {
  const me = useMe();
  const client = useQueryClient();
  const notify = useNotify();
  const canEdit = me.user.role === 'owner' || me.user.role === 'admin';
  const settings = useQuery(standupSettingsQuery);
  const [draft, setDraft] = useState<StandupSettings | null>(null);
  useEffect(() => {
    if (settings.data && !draft) setDraft(settings.data);
  }, [settings.data, draft]);
  const save = useMutation({
    mutationFn: saveStandupSettings,
    meta: { quiet: true },
    onSuccess: (saved) => {
      client.setQueryData(standupKeys.settings, saved);
      setDraft(saved);
      // "Today" may have moved with the timezone.
      void client.invalidateQueries({ queryKey: standupKeys.all });
      notify({ kind: 'info', message: 'Standup settings saved.' });
    },
  });
  if (settings.isPending || !draft) return settings.error ? <ErrorNote error={settings.error} /> : <Spinner />;
  const set = (changes: Partial<StandupSettings>) => setDraft({ ...draft, ...changes });
  return (
    <section aria-labelledby="standup-settings-title">
      <h2 id="standup-settings-title">Standup settings</h2>
      {!canEdit ? <p className="note">Only the workspace's owners and admins change these.</p> : null}
      <Form
        className="stack"
        label="Standup settings"
        onSubmit={() => save.mutate({ ...draft, questions: draft.questions.map((q) => q.trim()).filter(Boolean) })}
      >
        <fieldset disabled={!canEdit || save.isPending} className="plain-fieldset stack">
          <div className="inline-form">
            <Field label="Timezone" hint="Where the team's day begins and ends.">
              {(id) => (
                <>
                  <input
                    id={id}
                    required
                    list="standup-zones"
                    value={draft.timezone}
                    onChange={(e) => set({ timezone: e.target.value })}
                  />
                  <datalist id="standup-zones">
                    {zones().map((z) => (
                      <option key={z} value={z} />
                    ))}
                  </datalist>
                </>
              )}
            </Field>
            <Field label="Reminder time" hint="24 h, in the team's timezone.">
              {(id) => (
                <input
                  id={id}
                  type="time"
                  required
                  value={draft.reminder_time}
                  onChange={(e) => set({ reminder_time: e.target.value })}
                />
              )}
            </Field>
          </div>
          <WeekdayChecks days={draft.days} onChange={(days) => set({ days })} />
          <QuestionFields questions={draft.questions} onChange={(questions) => set({ questions })} />
          <ErrorNote error={save.error} />
          {canEdit ? (
            <div className="actions">
              <button type="submit" className="primary">
                Save standup settings
              </button>
              <button type="button" onClick={() => setDraft(settings.data ?? null)}>
                Undo changes
              </button>
            </div>
          ) : null}
        </fieldset>
      </Form>
    </section>
  );
}

/** The days of the week the team holds a standup, kept in week order. */
function WeekdayChecks({ days, onChange }: { days: Weekday[]; onChange: (days: Weekday[]) => void }) {
  return (
    <fieldset className="checks">
      <legend>Standup days</legend>
      {WEEKDAYS.map(([day, label]) => (
        <label key={day} className="check">
          <input
            type="checkbox"
            checked={days.includes(day)}
            onChange={(e) =>
              onChange(
                e.target.checked
                  ? WEEKDAYS.map(([d]) => d).filter((d) => d === day || days.includes(d))
                  : days.filter((d) => d !== day),
              )
            }
          />{' '}
          {label}
        </label>
      ))}
    </fieldset>
  );
}

/** The questions of a check-in, one to MAX_QUESTIONS of them. */
function QuestionFields({ questions, onChange }: { questions: string[]; onChange: (questions: string[]) => void }) {
  return (
    <fieldset className="checks stack">
      <legend>Questions</legend>
      {questions.map((q, i) => (
        <div key={i} className="actions">
          <input
            aria-label={`Question ${i + 1}`}
            required
            maxLength={500}
            className="grow"
            value={q}
            onChange={(e) => onChange(questions.map((text, j) => (j === i ? e.target.value : text)))}
          />
          <button
            type="button"
            className="link"
            disabled={questions.length === 1}
            onClick={() => onChange(questions.filter((_, j) => j !== i))}
          >
            Remove question {i + 1}
          </button>
        </div>
      ))}
      <div className="actions">
        <button type="button" disabled={questions.length >= MAX_QUESTIONS} onClick={() => onChange([...questions, ''])}>
          Add a question
        </button>
      </div>
    </fieldset>
  );
}
