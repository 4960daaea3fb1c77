import { isForeignKeyViolation, isUniqueViolation, type Executor } from '../../db/database.ts';
import { type Tx, withSavepoint } from '../../db/unit-of-work.ts';
import { ApiError, foundOr404, invalid } from '../../http/errors.ts';
import type { Principal } from '../../identity/principal.ts';
import { projectFor } from '../../policy/index.ts';
import { visibleOne } from '../../policy/visible-one.ts';
import { visiblePages } from '../../policy/visible-pages.ts';
import { defaultTransitionName } from './defaults.ts';
import { statusNames } from './statuses.repository.ts';
import * as repo from './transitions.repository.ts';
import { presentTransition, type TransitionJson } from './workflows.presenter.ts';
import { findVisibleWorkflow, touchWorkflows } from './workflows.repository.ts';
import { changedFields, recordAudit } from '../audit/record-audit.ts';

const CONFIGURATION = 'statuses, transitions and workflows';

export const listTransitions = visiblePages(repo.transitionsPage, presentTransition);

const visibleTransition = visibleOne('Transition', repo.findVisibleTransition, presentTransition);
export const getTransition = visibleTransition.read;

async function findWorkflow(db: Executor, principal: Principal, id: number) {
  return foundOr404(findVisibleWorkflow(db, principal, id), 'Workflow');
}

/** Both ends must be distinct statuses of the workflow's own project; returns their names. */
async function checkPair(
  db: Executor,
  projectId: number,
  from: number,
  to: number,
): Promise<{ from: string; to: string }> {
  const names = await statusNames(db, projectId, [from, to]);
  const bad: Record<string, string> = {};
  if (!names.has(from)) bad.from_status = "is not a status of the workflow's project";
  if (!names.has(to)) bad.to_status = "is not a status of the workflow's project";
  if (from === to) bad.to_status = 'must differ from from_status';
  if (Object.keys(bad).length) throw invalid(bad);
  return { from: names.get(from)!, to: names.get(to)! };
}

interface Target {
  workflow: number;
  project: number;
  from: number;
  to: number;
}

/**
 * Writes a transition so that a refusal by the database reads as the API's answer: a pair the
 * workflow already permits is 409 ALREADY_EXISTS naming it; a status or the workflow deleted
 * between the checks and the write (the foreign keys caught it) is answered as if the request
 * had arrived after the delete. The statement runs in a savepoint so the reads after a refusal
 * can still run in the unit of work.
 */
async function writeTransition<R>(tx: Tx, principal: Principal, target: Target, write: () => Promise<R>): Promise<R> {
  try {
    return await withSavepoint(tx, write);
  } catch (error) {
    if (isUniqueViolation(error)) {
      const existing = await repo.findTransitionBetween(tx.db, target.workflow, target.from, target.to);
      throw new ApiError('ALREADY_EXISTS', 'The workflow already has a transition between these statuses.', {
        field: 'to_status',
        ...(existing ? { transition: existing.id } : {}),
      });
    }
    if (isForeignKeyViolation(error)) {
      await findWorkflow(tx.db, principal, target.workflow);
      await checkPair(tx.db, target.project, target.from, target.to);
    }
    throw error;
  }
}

// The workflow's JSON embeds its transitions, so every transition write below touches the workflow too.

export async function createTransition(
  tx: Tx,
  principal: Principal,
  input: { workflow: number; from_status: number; to_status: number; name?: string },
): Promise<TransitionJson> {
  const workflow = await findWorkflow(tx.db, principal, input.workflow);
  await projectFor(tx.db, principal, { id: workflow.project }, 'project.administer', CONFIGURATION);
  const names = await checkPair(tx.db, workflow.project, input.from_status, input.to_status);
  const now = tx.clock.nowIso();
  const target = { workflow: workflow.id, project: workflow.project, from: input.from_status, to: input.to_status };
  const values = {
    workflow_id: workflow.id,
    from_status_id: input.from_status,
    to_status_id: input.to_status,
    name: input.name ?? defaultTransitionName(names.from, names.to),
  };
  const [id] = await writeTransition(tx, principal, target, () => repo.insertTransitions(tx.db, [values], now));
  await touchWorkflows(tx.db, [workflow.id], now);
  const created = await visibleTransition.read(tx, principal, id!);
  await recordAudit(tx, {
    organizationId: principal.organizationId,
    actor: principal,
    action: 'transition.created',
    target: { type: 'transition', id: id!, label: created.name },
    projectId: workflow.project,
    after: { workflow: workflow.name, ...auditedTransition(created) },
  });
  return created;
}

/** What an audit record keeps of a transition: its name and its statuses, by name. */
function auditedTransition(transition: { name: string; from_status_name: string; to_status_name: string }) {
  return { name: transition.name, from: transition.from_status_name, to: transition.to_status_name };
}

export async function updateTransition(
  tx: Tx,
  principal: Principal,
  id: number,
  changes: { from_status?: number; to_status?: number; name?: string },
) {
  const current = await visibleTransition.find(tx, principal, id);
  await projectFor(tx.db, principal, { id: current.project }, 'project.administer', CONFIGURATION);
  const from = changes.from_status ?? current.from_status;
  const to = changes.to_status ?? current.to_status;
  const pairChanged = from !== current.from_status || to !== current.to_status;

  let name = changes.name ?? current.name;
  if (pairChanged) {
    const names = await checkPair(tx.db, current.project, from, to);
    // A name that was only ever the default follows the new pair; a chosen name is kept.
    if (
      changes.name === undefined &&
      current.name === defaultTransitionName(current.from_status_name, current.to_status_name)
    ) {
      name = defaultTransitionName(names.from, names.to);
    }
  }
  if (!pairChanged && name === current.name) return presentTransition(current);

  const now = tx.clock.nowIso();
  const target = { workflow: current.workflow, project: current.project, from, to };
  await writeTransition(tx, principal, target, () =>
    repo.updateTransitionRow(tx.db, id, { from_status_id: from, to_status_id: to, name }, now),
  );
  await touchWorkflows(tx.db, [current.workflow], now);
  const after = await visibleTransition.read(tx, principal, id);
  await recordAudit(tx, {
    organizationId: principal.organizationId,
    actor: principal,
    action: 'transition.updated',
    target: { type: 'transition', id, label: after.name },
    projectId: current.project,
    ...changedFields(auditedTransition(current), auditedTransition(after)),
  });
  return after;
}

export async function deleteTransition(tx: Tx, principal: Principal, id: number): Promise<void> {
  const current = await visibleTransition.find(tx, principal, id);
  await projectFor(tx.db, principal, { id: current.project }, 'project.administer', CONFIGURATION);
  await repo.deleteTransitionRow(tx.db, id);
  await touchWorkflows(tx.db, [current.workflow], tx.clock.nowIso());
  await recordAudit(tx, {
    organizationId: principal.organizationId,
    actor: principal,
    action: 'transition.deleted',
    target: { type: 'transition', id, label: current.name },
    projectId: current.project,
    before: auditedTransition(current),
  });
}
