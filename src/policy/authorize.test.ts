import { describe, expect, it } from 'vitest';
import type { WorkspaceRole } from '../db/schema.ts';
import { roleRefusal } from './accounts.ts';
import { type Actor, type ProjectAccess, refusal, type Resource, WORKSPACE } from './authorize.ts';

/** The decisions of docs/api/access.md, each with the reason a refused caller reads. */
const actor = (role: WorkspaceRole, projectRestriction: number[] | null = null, userId = 1): Actor => ({
  userId,
  role,
  projectRestriction,
});
const project = (role: ProjectAccess['role']): Resource => ({ kind: 'project', project: { id: 10, role } });
const item = (role: ProjectAccess['role'], authorId: number | null): Resource => ({
  kind: 'item',
  project: { id: 10, role },
  authorId,
});
const account = (id: number, kind: 'human' | 'service'): Resource => ({ kind: 'account', account: { id, kind } });

describe('refusal', () => {
  it('project.create: anyone but a guest, and never through a restricted token', () => {
    for (const role of ['owner', 'admin', 'member'] as const)
      expect(refusal(actor(role), 'project.create', WORKSPACE)).toBeNull();
    expect(refusal(actor('guest'), 'project.create', WORKSPACE)).toBe('Your workspace role cannot create projects.');
    expect(refusal(actor('owner', [10]), 'project.create', WORKSPACE)).toBe(
      'A token restricted to specific projects cannot create projects.',
    );
  });

  it('workspace.configure: owners and admins, unrestricted', () => {
    expect(refusal(actor('admin'), 'workspace.configure', WORKSPACE)).toBeNull();
    expect(refusal(actor('member'), 'workspace.configure', WORKSPACE)).toBe(
      'Only workspace owners and admins can change workspace configuration.',
    );
    expect(refusal(actor('owner', []), 'workspace.configure', WORKSPACE)).toBe(
      'A token restricted to specific projects cannot change workspace configuration.',
    );
  });

  it('people.manage is for owners and admins; people.manage-owners for owners only', () => {
    expect(refusal(actor('admin'), 'people.manage', WORKSPACE)).toBeNull();
    expect(refusal(actor('member'), 'people.manage', WORKSPACE)).toBe('Only workspace owners and admins can do this.');
    expect(refusal(actor('owner'), 'people.manage-owners', WORKSPACE)).toBeNull();
    expect(refusal(actor('admin'), 'people.manage-owners', WORKSPACE)).toBe('Only an owner can do this.');
  });

  it('person.manage: owners and admins; a person who is or would become an owner only by an owner', () => {
    const person = (...roles: WorkspaceRole[]): Resource => ({ kind: 'person', roles });
    expect(refusal(actor('admin'), 'person.manage', person('member', 'admin'))).toBeNull();
    expect(refusal(actor('owner'), 'person.manage', person('admin', 'owner'))).toBeNull();
    for (const target of [person('owner'), person('owner', 'member'), person('member', 'owner')])
      expect(refusal(actor('admin'), 'person.manage', target)).toBe(
        'Only an owner can manage an owner or make someone owner.',
      );
    expect(refusal(actor('member'), 'person.manage', person('guest'))).toBe(
      'Only workspace owners and admins can do this.',
    );
    expect(() => refusal(actor('owner'), 'person.manage', WORKSPACE)).toThrow(TypeError);
  });

  it('only a person can be an owner', () => {
    expect(roleRefusal('service', 'owner')).toBe('a service account cannot be an owner');
    expect(roleRefusal('service', 'admin')).toBeNull();
    expect(roleRefusal('human', 'owner')).toBeNull();
  });

  it('token.issue: for oneself, or a service account by an owner or admin; never for another person', () => {
    expect(refusal(actor('guest', null, 7), 'token.issue', account(7, 'human'))).toBeNull();
    expect(refusal(actor('owner'), 'token.issue', account(8, 'human'))).toBe(
      'A token acts as the person who creates it: create tokens for yourself, or for a service account.',
    );
    expect(refusal(actor('admin'), 'token.issue', account(9, 'service'))).toBeNull();
    expect(refusal(actor('member'), 'token.issue', account(9, 'service'))).toBe(
      'Only workspace owners and admins can create tokens for service accounts.',
    );
    expect(() => refusal(actor('owner'), 'token.issue', WORKSPACE)).toThrow(TypeError);
  });

  it('project.read is decided by visibility alone; contribute refuses viewers, unless workspace admins', () => {
    expect(refusal(actor('guest'), 'project.read', project('viewer'))).toBeNull();
    expect(refusal(actor('member'), 'project.contribute', project('member'))).toBeNull();
    expect(refusal(actor('member'), 'project.contribute', project('viewer'))).toBe(
      'Project viewers can read but not change it.',
    );
    expect(refusal(actor('admin'), 'project.contribute', project('viewer'))).toBeNull();
    expect(() => refusal(actor('owner'), 'project.read', WORKSPACE)).toThrow(TypeError);
  });

  it('project.administer: project admins and workspace owners and admins', () => {
    expect(refusal(actor('member'), 'project.administer', project('admin'))).toBeNull();
    expect(refusal(actor('owner'), 'project.administer', project('viewer'))).toBeNull();
    expect(refusal(actor('member'), 'project.administer', project('member'))).toBe(
      'Only project admins (or workspace owners and admins) can change it.',
    );
  });

  it('item.edit is for its author; item.delete also for whoever administers the project', () => {
    expect(refusal(actor('member'), 'item.edit', item('member', 1))).toBeNull();
    expect(refusal(actor('owner'), 'item.edit', item('admin', 2))).toBe('Only its author can change it.');
    expect(refusal(actor('member'), 'item.delete', item('admin', 2))).toBeNull();
    expect(refusal(actor('member'), 'item.delete', item('member', 2))).toBe(
      'Only its author or a project admin can delete it.',
    );
    expect(refusal(actor('member'), 'item.delete', item('member', null))).toBe(
      'Only its author or a project admin can delete it.',
    );
    // A viewer changes nothing, not even what it wrote before it became a viewer.
    expect(refusal(actor('member'), 'item.edit', item('viewer', 1))).toBe(
      'Project viewers can read but not change it.',
    );
    expect(() => refusal(actor('member'), 'item.edit', project('member'))).toThrow(TypeError);
  });
});
