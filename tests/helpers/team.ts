import type { Actor, TestHarness } from './harness.ts';

/** One project's cast for permission tests: its creator, two members, a project admin, a viewer, and a workspace member outside it. */
export interface ProjectTeam {
  owner: Actor;
  alice: Actor;
  bob: Actor;
  projectAdmin: Actor;
  viewer: Actor;
  outsider: Actor;
}

export async function projectTeam(h: TestHarness, projectKey: string): Promise<ProjectTeam> {
  const owner = await h.actor();
  const member = () => h.actor({ org: owner.org, role: 'member' });
  const team = { owner, alice: await member(), bob: await member(), projectAdmin: await member(), viewer: await member(), outsider: await member() };
  await h.project(owner, projectKey);
  await h.addMember(projectKey, team.alice.accountId, 'member');
  await h.addMember(projectKey, team.bob.accountId, 'member');
  await h.addMember(projectKey, team.projectAdmin.accountId, 'admin');
  await h.addMember(projectKey, team.viewer.accountId, 'viewer');
  return team;
}
