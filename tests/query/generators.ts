import fc from 'fast-check';
import type { TaskSpec, World } from './world.ts';

/** Words with their inflections, stop words, accents and digits: where stemming and tokenizing could disagree. */
export const VOCABULARY = [
  'login',
  'logins',
  'logged',
  'logging',
  'timeout',
  'timeouts',
  'run',
  'running',
  'runs',
  'crash',
  'crashes',
  'crashed',
  'page',
  'pages',
  'the',
  'and',
  'of',
  'café',
  'cafe',
  'naïve',
  'API',
  'v2',
  '2026',
  'Error',
  'errors',
  'connection',
  'connected',
  'user’s',
  'sync-job',
];
const SEPARATORS = [' ', ', ', '. ', '\n', ' - ', ': ', '/'];

const text = (max: number) =>
  fc.array(fc.tuple(fc.constantFrom(...VOCABULARY), fc.constantFrom(...SEPARATORS)), { maxLength: max }).map((parts) =>
    parts
      .map(([word, separator]) => word + separator)
      .join('')
      .trim(),
  );

const NOW_MS = Date.parse('2026-11-21T09:00:00Z');
const DAY = 86_400_000;
const instant = fc
  .integer({ min: -20 * DAY, max: 20 * DAY })
  .map((offset) => new Date(NOW_MS + offset).toISOString().replace('Z', '123Z'));
const date = fc.integer({ min: -15, max: 15 }).map((days) => new Date(NOW_MS + days * DAY).toISOString().slice(0, 10));

export function taskSpecs(world: World): fc.Arbitrary<TaskSpec[]> {
  const person = fc.constantFrom(world.caller.accountId, ...Object.values(world.people));
  const one = fc.record({
    project: fc.constantFrom('QA', 'QB', 'QB', 'QA', 'QH') as fc.Arbitrary<'QA' | 'QB' | 'QH'>,
    title: text(4).map((t) => t || 'untitled'),
    description: fc.oneof(fc.constant(''), text(6)),
    pick: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
    assignee: fc.option(person),
    creator: fc.option(person),
    labelMask: fc.nat(7),
    due: fc.option(date),
    start: fc.option(date),
    estimate: fc.option(fc.constantFrom(0, 1, 2.5, 8)),
    created: instant,
    updated: instant,
    followers: fc.uniqueArray(person, { maxLength: 3 }),
    parent: fc.option(fc.nat()),
    blockers: fc.uniqueArray(fc.nat(), { maxLength: 2 }),
    custom: fc.record(
      {
        Points: fc.oneof(fc.integer({ min: -3, max: 13 }), fc.constantFrom(0.5, 2.5)),
        Area: fc.constantFrom(...world.fields.Area!.options),
        Tags: fc
          .uniqueArray(fc.constantFrom(...world.fields.Tags!.options), { minLength: 1 })
          .map((ids) => ids.sort((a, b) => a - b)),
        Note: fc.constantFrom('hello', 'Hello', 'x y'),
        Launch: date,
        Flag: fc.boolean(),
        Reviewer: person,
        Hidden: fc.constant('secret'),
      },
      { requiredKeys: [] },
    ),
  });
  return fc.array(one, { minLength: 4, maxLength: 18 }).map((raws) =>
    raws.map((raw, index): TaskSpec => {
      const options = world.options[raw.project]!;
      const at = (list: unknown[], i: number) => list[raw.pick[i]! % list.length];
      const labels = world.labels[raw.project]!.filter((_, i) => raw.labelMask & (1 << i)).map((l) => l.id);
      const sameProjectEarlier = raws.slice(0, index).flatMap((r, i) => (r.project === raw.project ? [i] : []));
      const { Hidden, ...custom } = raw.custom;
      return {
        project: raw.project,
        title: raw.title,
        description: raw.description,
        status: (at(options.statuses, 0) as { id: number }).id,
        type: (at(options.types, 1) as { id: number }).id,
        priority: (at(options.priorities, 2) as { id: number }).id,
        assignee: raw.assignee,
        creator: raw.creator,
        labels,
        milestone: raw.pick[3]! % 3 === 0 ? null : (at(world.milestones[raw.project]!, 4) as number),
        sprint: raw.pick[5]! % 3 === 0 ? null : (at(world.sprints[raw.project]!, 6) as number),
        parent:
          raw.parent !== null && sameProjectEarlier.length
            ? sameProjectEarlier[raw.parent % sameProjectEarlier.length]!
            : null,
        due: raw.due,
        start: raw.start,
        estimate: raw.estimate,
        created: raw.created,
        updated: raw.updated,
        followers: raw.followers,
        blockers: index === 0 ? [] : [...new Set(raw.blockers.map((b) => b % index))],
        custom: raw.project === 'QH' && Hidden !== undefined ? { ...custom, Hidden } : custom,
      };
    }),
  );
}

const quoted = (word: string) =>
  /^[\w@.-]+$/.test(word) ? fc.constantFrom(word, `"${word}"`) : fc.constant(`"${word}"`);
const oneOf = (...words: string[]) => fc.constantFrom(...words).chain(quoted);
const list = (values: fc.Arbitrary<string>) =>
  fc.array(values, { minLength: 1, maxLength: 3 }).map((vs) => `(${vs.join(', ')})`);

function equality(field: string, values: fc.Arbitrary<string>, nullable: boolean): fc.Arbitrary<string> {
  const options = [
    fc.tuple(fc.constantFrom('=', '!='), values).map(([op, v]) => `${field} ${op} ${v}`),
    fc.tuple(fc.constantFrom('IN', 'not in', 'NOT IN'), list(values)).map(([op, v]) => `${field} ${op} ${v}`),
  ];
  if (nullable) options.push(fc.constantFrom(`${field} IS EMPTY`, `${field} is not empty`));
  return fc.oneof(...options);
}

const comparisons = fc.constantFrom('=', '!=', '<', '<=', '>', '>=');
const timeValues = fc.oneof(
  date,
  fc.constantFrom(
    '-3d',
    '+1w',
    '-12h',
    '2d',
    '-2w',
    'now()',
    'today()',
    'startOfWeek()',
    'endOfWeek()',
    'startOfMonth()',
    'endOfMonth()',
  ),
);

/** Valid queries over the world's names (and names that exist nowhere, or only where the caller cannot see). */
export function queries(world: World): fc.Arbitrary<string> {
  const people = oneOf(
    'alice',
    'ALICE',
    'bob@q.test',
    'BOB@Q.TEST',
    'carol',
    'zed',
    String(world.people.carol),
    '999999',
  );
  const personValues = fc.oneof(people, fc.constant('me()'));
  const clause = fc.oneof(
    equality('project', oneOf('QA', 'qb', 'QH', 'NOPE'), false),
    equality('key', oneOf('QA-1', 'qa-2', 'QB-1', 'QB-3', 'QH-1'), false),
    equality('status', oneOf('To Do', 'in progress', 'DONE', 'Blocked', 'In Review', 'Nope'), false),
    fc
      .tuple(
        fc.constantFrom('status', 'priority'),
        comparisons.filter((c) => c !== '=' && c !== '!='),
        oneOf('In Progress', 'high', 'Medium', 'Blocked'),
      )
      .map(([f, op, v]) => `${f} ${op} ${v}`),
    equality('status_category', fc.constantFrom('todo', 'in_progress', 'DONE'), false),
    equality('type', oneOf('Bug', 'task', 'Epic', 'Nope'), false),
    equality('priority', oneOf('Low', 'urgent', 'High'), false),
    equality('assignee', personValues, true),
    equality('creator', personValues, true),
    equality('follower', personValues, true),
    equality('label', oneOf('bug', 'BUG', 'feature', 'backend', 'secret', 'none'), true),
    equality(
      'milestone',
      fc.oneof(oneOf('v1', 'V2', 'v9'), fc.constantFrom(...world.milestones.QB!.map(String))),
      true,
    ),
    equality(
      'sprint',
      fc.oneof(oneOf('S1', 's3', 'S9'), fc.constant('openSprint()'), fc.constantFrom(...world.sprints.QA!.map(String))),
      true,
    ),
    equality('parent', oneOf('QA-1', 'qb-2', 'QH-1'), true),
    fc
      .tuple(fc.constantFrom('due', 'start', 'created', 'updated'), comparisons, timeValues)
      .map(([f, op, v]) => `${f} ${op} ${v}`),
    fc.tuple(comparisons, fc.constantFrom('0', '1', '2.5', '3')).map(([op, v]) => `estimate ${op} ${v}`),
    fc.constantFrom(
      'due IS EMPTY',
      'due IS NOT EMPTY',
      'start is empty',
      'estimate IS NOT EMPTY',
      'description is empty',
      'description IS NOT EMPTY',
    ),
    fc
      .tuple(
        fc.constantFrom('title', 'description', 'text'),
        fc.constantFrom('~', '!~'),
        fc.array(fc.constantFrom(...VOCABULARY, 'runner', 'connect', 'absent'), { minLength: 1, maxLength: 2 }),
      )
      .map(([f, op, words]) => `${f} ${op} "${words.join(' ')}"`),
    fc.constantFrom('blocked = true', 'blocked = false', 'blocked != true', 'BLOCKED = TRUE'),
    fc.tuple(comparisons, fc.constantFrom('0', '2.5', '5', '-1')).map(([op, v]) => `cf["Points"] ${op} ${v}`),
    equality('cf["Area"]', oneOf('Web', 'api', 'Mobile'), true),
    equality('cf["Tags"]', oneOf('a', 'B', 'z'), true),
    equality('cf["Note"]', oneOf('hello', 'x y'), true),
    fc.tuple(comparisons, timeValues).map(([op, v]) => `cf["Launch"] ${op} ${v}`),
    fc.constantFrom('cf["Flag"] = true', 'cf["Flag"] != false', 'cf["flag"] IS EMPTY'),
    equality('cf["Reviewer"]', personValues, true),
    fc.constantFrom('cf["Hidden"] = secret', 'cf["Hidden"] IS EMPTY', 'cf["Nope"] is not empty'),
  );
  const expression: fc.Memo<string> = fc.memo((depth) =>
    depth <= 1
      ? clause
      : fc.oneof(
          { weight: 3, arbitrary: clause },
          { weight: 1, arbitrary: expression(depth - 1).map((e) => `NOT (${e})`) },
          {
            weight: 2,
            arbitrary: fc
              .tuple(
                expression(depth - 1),
                fc.constantFrom('AND', 'or', 'and', 'OR'),
                expression(depth - 1),
                fc.boolean(),
              )
              .map(([a, op, b, paren]) => (paren ? `(${a} ${op} ${b})` : `${a} ${op} ${b}`)),
          },
        ),
  );
  return expression(4);
}

export const TIME_ZONES = ['UTC', 'Pacific/Auckland', 'America/Los_Angeles', 'Asia/Kolkata', 'Europe/Berlin'];
