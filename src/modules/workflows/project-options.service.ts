import type { AppContext } from '../../context.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { projectFor } from '../../policy/index.ts';
import { type OptionTable, optionsPage } from './project-options.repository.ts';

/** The priorities or task types a project offers, in display order, flagging the default for new tasks. */
export async function listProjectOptions(
  ctx: AppContext,
  principal: Principal,
  projectKey: string,
  table: OptionTable,
  page: PageRequest,
) {
  const project = await projectFor(ctx.db, principal, { key: projectKey });
  const { rows, pagination } = await optionsPage(ctx.db, table, project.id, page);
  return { data: rows.map((row) => ({ ...row, is_default: Number(row.is_default) === 1 })), pagination };
}
