import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { listOf, ok } from '../../http/envelope.ts';
import { pageRequest } from '../../http/pagination.ts';
import { commitWrite } from '../../http/unit-of-work.ts';
import { Envelope, errorResponses, ListEnvelope, PaginationQuery } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { callerOf } from '../tasks/task.http.ts';
import { listBlockers } from './blockers.service.ts';
import { readSettings, updateSettings } from './settings.service.ts';
import {
  EntryListQuery,
  EntryPutBody,
  NoFieldsBody,
  SettingsPatchBody,
  StandupEntry,
  type StandupEntryJson,
  StandupSettings,
  type StandupSettingsJson,
  StandupTask,
  TeamBlocker,
  UserIdParams,
  WorklistItem,
} from './standups.schemas.ts';
import * as standups from './standups.service.ts';

export const standupModels = [StandupTask, StandupEntry, TeamBlocker, WorklistItem, StandupSettings];

/** A missing body counts as `{}`, so the strict empty-object schema refuses fields but not an empty POST. */
async function emptyBodyAsObject(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}

const TODAY = '"Today" is the current date in the team timezone (standup settings).';

const tags = ['Standups'];
const read = { scope: 'standups:read' } as const;
const write = { scope: 'standups:write' } as const;

export function registerStandupRoutes(app: Api, ctx: AppContext): void {
  registerEntryRoutes(app, ctx);
  registerTeamRoutes(app, ctx);
  registerSettingsRoutes(app, ctx);
}

/** The team's entries of a day, and the caller's own entry of today: read, submit, redraft, skip. */
function registerEntryRoutes(app: Api, ctx: AppContext): void {
  const entry = Envelope(Type.Ref(StandupEntry));
  app.get(
    '/api/v1/standups/',
    {
      schema: {
        tags,
        summary: "The team's entries for one day",
        description: `Entries of everyone in the organization for \`date\` (default today). ${TODAY} Other people's drafts are not listed. Ordering: \`user\` (default), \`submitted_at\`, \`created_at\`, \`updated_at\`.`,
        querystring: EntryListQuery,
        response: { 200: ListEnvelope(Type.Ref(StandupEntry)), ...errorResponses() },
      },
      config: read,
    },
    async (request) =>
      listOf(await standups.listEntries(ctx, principalOf(request), request.query, pageRequest(request.query))),
  );

  app.get(
    '/api/v1/standups/me/',
    {
      schema: {
        tags,
        summary: 'Your entry for today',
        description: `The token's service account's entry for today, in any state. ${TODAY} 404 NOT_FOUND (with \`details.date\`) until one is submitted, redrafted or skipped; reading creates nothing.`,
        response: { 200: entry, ...errorResponses(404) },
      },
      config: read,
    },
    async (request) => ok(await standups.getMyEntry(ctx, principalOf(request))),
  );

  app.put(
    '/api/v1/standups/me/',
    {
      schema: {
        tags,
        summary: 'Write and submit your entry for today',
        description: `Always the token's own account: there is no user field. Omitted fields keep today's current values (\`{}\` submits a redraft as it is). Submitting again the same day edits the entry and takes a new snapshot. \`tasks\` is your worklist frozen at this moment. ${TODAY}`,
        body: EntryPutBody,
        response: { 200: entry, ...errorResponses() },
      },
      config: write,
    },
    async (request, reply) =>
      commitWrite(
        ctx,
        request,
        reply,
        (tx) => standups.submitMyEntry(tx, callerOf(request), request.body),
        ok<StandupEntryJson>,
      ),
  );

  app.post(
    '/api/v1/standups/me/redraft/',
    {
      schema: {
        tags,
        summary: "Rebuild today's draft from your worklist and recent activity",
        description:
          '`done`: tasks you worked on since your last submitted entry (or since the start of yesterday), marking those you moved to a done-category status. `doing`: your live worklist minus finished tasks. Blockers carry over from your last submitted entry. Does not submit. Refused with 409 STANDUP_ALREADY_SUBMITTED once today is submitted; a skipped day becomes a draft again. Takes no body fields.',
        body: NoFieldsBody,
        response: { 200: entry, ...errorResponses(409) },
      },
      preValidation: emptyBodyAsObject,
      config: { ...write, optionalBody: true },
    },
    async (request, reply) => {
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => standups.redraftMyEntry(tx, principalOf(request)),
        ok<StandupEntryJson>,
      );
    },
  );

  app.post(
    '/api/v1/standups/me/skip/',
    {
      schema: {
        tags,
        summary: 'Mark today skipped',
        description:
          'Idempotent. A draft is discarded. Refused with 409 STANDUP_ALREADY_SUBMITTED once today is submitted. Takes no body fields.',
        body: NoFieldsBody,
        response: { 200: entry, ...errorResponses(409) },
      },
      preValidation: emptyBodyAsObject,
      config: { ...write, optionalBody: true },
    },
    async (request, reply) => {
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => standups.skipMyDay(tx, principalOf(request)),
        ok<StandupEntryJson>,
      );
    },
  );
}

/** What blocks the team, one person's worklist and one person's history. */
function registerTeamRoutes(app: Api, ctx: AppContext): void {
  app.get(
    '/api/v1/standups/blockers/',
    {
      schema: {
        tags,
        summary: 'Everything currently declared blocking across the team',
        description:
          "Blockers in today's submitted entries, plus open tasks of projects you can see that are blocked (`blocks` link) by a task that is not done. Each names who declared it and since when. Oldest first by default (`ordering`: `since`, `declared_by`).",
        querystring: Type.Object(PaginationQuery),
        response: { 200: ListEnvelope(Type.Ref(TeamBlocker)), ...errorResponses() },
      },
      config: read,
    },
    async (request) => listOf(await listBlockers(ctx, principalOf(request), pageRequest(request.query))),
  );

  app.get(
    '/api/v1/standups/worklist/:user_id/',
    {
      schema: {
        tags,
        summary: 'What one person has in flight now',
        description: `Live: tasks assigned to the person in an in_progress-category status, plus those assigned to them that they changed today. ${TODAY} Only tasks of projects you can see. A user outside your organization is 404. Ordering: \`updated_at\` (default \`-updated_at\`), \`priority\`.`,
        params: UserIdParams,
        querystring: Type.Object(PaginationQuery),
        response: { 200: ListEnvelope(Type.Ref(WorklistItem)), ...errorResponses(404) },
      },
      config: read,
    },
    async (request) =>
      listOf(await standups.worklist(ctx, principalOf(request), request.params.user_id, pageRequest(request.query))),
  );

  app.get(
    '/api/v1/standups/history/:user_id/',
    {
      schema: {
        tags,
        summary: "One person's past entries, frozen as written",
        description:
          'Submitted and skipped entries before today, newest first (`ordering`: `date`). Task titles and statuses are as they were when submitted: later renames, moves and deletions never change them. Tasks and blockers of projects you cannot see are omitted. A user outside your organization is 404.',
        params: UserIdParams,
        querystring: Type.Object(PaginationQuery),
        response: { 200: ListEnvelope(Type.Ref(StandupEntry)), ...errorResponses(404) },
      },
      config: read,
    },
    async (request) =>
      listOf(await standups.history(ctx, principalOf(request), request.params.user_id, pageRequest(request.query))),
  );
}

function registerSettingsRoutes(app: Api, ctx: AppContext): void {
  app.get(
    '/api/v1/standups/settings/',
    {
      schema: {
        tags,
        summary: "The organization's standup settings",
        description: 'Defaults until changed: UTC, mon-fri, 09:30 and three questions.',
        response: { 200: Envelope(Type.Ref(StandupSettings)), ...errorResponses() },
      },
      config: read,
    },
    async (request) => ok(await readSettings(ctx.db, principalOf(request).organizationId)),
  );

  app.patch(
    '/api/v1/standups/settings/',
    {
      schema: {
        tags,
        summary: 'Change standup settings (workspace owners and admins)',
        description:
          'Any subset of the fields. `timezone` must be an IANA name (stored in canonical form); changing it moves the day boundary for every "today" from the next request on. Existing entries keep their dates. Other roles get 403 FORBIDDEN.',
        body: SettingsPatchBody,
        response: { 200: Envelope(Type.Ref(StandupSettings)), ...errorResponses() },
      },
      config: write,
    },
    async (request, reply) =>
      commitWrite(
        ctx,
        request,
        reply,
        (tx) => updateSettings(tx, principalOf(request), request.body),
        ok<StandupSettingsJson>,
      ),
  );
}
