import type { AppContext } from '../../context.ts';
import { presentPage } from '../../db/present-page.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../auth/principal.ts';
import { projectFor } from '../../policy/index.ts';
import { type OptionTable, optionsOfProject } from './project-options.repository.ts';

/** The priorities or task types a project offers, in display order, flagging the default for new tasks. */
export async function listProjectOptions(
  ctx: AppContext,
  principal: Principal,
  projectKey: string,
  table: OptionTable,
  page: PageRequest,
) {
  const project = await projectFor(ctx.db, principal, { key: projectKey });
  return presentPage(
    optionsOfProject(ctx.db, table, project.id),
    page,
    {
      idColumn: 'o.id',
      orderable: { id: 'o.id', name: 'o.name', position: 'o.position' },
      defaultOrdering: 'position',
    },
    (row) => ({ ...row, is_default: Number(row.is_default) === 1 }),
  );
}
