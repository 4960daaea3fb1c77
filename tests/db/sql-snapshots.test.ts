import { describe, expect, it } from 'vitest';
import { driftedSnapshots } from '../../scripts/write-sql-snapshots.ts';

describe('SQL snapshots', () => {
  it('sql/ holds the SQL every repository function compiles to, for both dialects', async () => {
    expect(await driftedSnapshots(), 'run npm run sql:snapshots and commit the diff').toEqual([]);
  });
});
