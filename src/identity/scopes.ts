/** Scope areas (docs/api/conventions.md, "Scopes"). A write scope implies the read scope of its area. */
export const SCOPE_AREAS = ['tasks', 'projects', 'standups', 'workflows', 'customfields', 'webhooks'] as const;
export type ScopeArea = (typeof SCOPE_AREAS)[number];
export type Scope = `${ScopeArea}:${'read' | 'write'}`;

export const ALL_SCOPES: Scope[] = SCOPE_AREAS.flatMap((area) => [`${area}:read`, `${area}:write`] as Scope[]);

export function isScope(value: string): value is Scope {
  return (ALL_SCOPES as string[]).includes(value);
}

/** The scopes a granted list actually allows, with each write scope adding its read scope. */
export function effectiveScopes(granted: readonly string[]): Scope[] {
  const result = new Set<Scope>();
  for (const scope of granted) {
    if (!isScope(scope)) continue;
    result.add(scope);
    if (scope.endsWith(':write')) result.add(scope.replace(':write', ':read') as Scope);
  }
  return ALL_SCOPES.filter((s) => result.has(s));
}
