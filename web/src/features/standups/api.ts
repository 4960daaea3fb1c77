import { queryOptions } from '@tanstack/react-query';
import type { StandupEntry, StandupSettings, TeamBlocker } from '../../lib/api-types.ts';
import { ApiError, get, getAll, patch, post, put, qs } from '../../lib/http.ts';

/** Everything about standups lives under `['standups']`, so a saved entry refreshes every view of the day. */
export const standupKeys = {
  all: ['standups'] as const,
  mine: ['standups', 'me'] as const,
  team: (date: string) => ['standups', 'team', date] as const,
  blockers: ['standups', 'blockers'] as const,
  history: (user: string) => ['standups', 'history', user] as const,
  settings: ['standups', 'settings'] as const,
};

/** The signed-in person's entry for today; null while they have none. */
export const myEntryQuery = queryOptions({
  queryKey: standupKeys.mine,
  queryFn: async ({ signal }) => {
    try {
      return await get<StandupEntry>('/api/v1/standups/me/', signal);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  },
});

export const teamDayQuery = (date: string) =>
  queryOptions({
    queryKey: standupKeys.team(date),
    queryFn: ({ signal }) => getAll<StandupEntry>(`/api/v1/standups/${qs({ date })}`, signal),
  });

export const blockersQuery = queryOptions({
  queryKey: standupKeys.blockers,
  queryFn: ({ signal }) => getAll<TeamBlocker>('/api/v1/standups/blockers/', signal),
});

export const historyQuery = (user: string) =>
  queryOptions({
    queryKey: standupKeys.history(user),
    queryFn: ({ signal }) => getAll<StandupEntry>(`/api/v1/standups/history/${user}/`, signal),
  });

export const standupSettingsQuery = queryOptions({
  queryKey: standupKeys.settings,
  queryFn: ({ signal }) => get<StandupSettings>('/api/v1/standups/settings/', signal),
});

export type EntryBody = Pick<StandupEntry, 'done' | 'doing' | 'blockers'>;
export const submitEntry = (body: EntryBody) => put<StandupEntry>('/api/v1/standups/me/', body);
export const redraftEntry = () => post<StandupEntry>('/api/v1/standups/me/redraft/');
export const skipToday = () => post<StandupEntry>('/api/v1/standups/me/skip/');
export const saveStandupSettings = (body: Pick<StandupSettings, 'timezone' | 'days' | 'reminder_time' | 'questions'>) =>
  patch<StandupSettings>('/api/v1/standups/settings/', body);
