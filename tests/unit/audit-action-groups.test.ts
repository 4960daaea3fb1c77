import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '../../src/modules/audit/actions.ts';
import { AUDIT_ACTION_GROUPS } from '../../web/src/features/audit/api.ts';

// The console API is not in the OpenAPI document, so the app's grouped copy of the actions has no
// generated type to follow: this keeps it from drifting from the server's list.
describe("the audit screen's action filter", () => {
  it('offers every action the log records, each once, and no other', () => {
    const offered = AUDIT_ACTION_GROUPS.flatMap((group) => group.actions);
    expect(new Set(offered).size).toBe(offered.length);
    expect([...offered].sort()).toEqual([...AUDIT_ACTIONS].sort());
  });
});
