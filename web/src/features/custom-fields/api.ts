import type { CustomField } from '../../lib/api-types.ts';
import { del, post, put } from '../../lib/http.ts';

export const createCustomField = (body: Record<string, unknown>) => post<CustomField>('/api/v1/custom-fields/', body);
export const updateCustomField = (id: number, body: Record<string, unknown>) =>
  put<CustomField>(`/api/v1/custom-fields/${id}/`, body);
export const deleteCustomField = (id: number) => del(`/api/v1/custom-fields/${id}/`);
export const reorderOptions = (field: number, ids: number[]) =>
  post('/api/v1/custom-fields/reorder/', { field, options: ids });
export const renameOption = (id: number, value: string) => put(`/api/v1/custom-fields/options/${id}/`, { value });
