import { Type, type Static } from '@sinclair/typebox';
import { PaginationQuery, Timestamp } from '../../http/schemas.ts';

export const FIELD_TYPES = ['text', 'number', 'date', 'boolean', 'url', 'user', 'select', 'multi_select'] as const;
export const OPTION_TYPES: ReadonlyArray<(typeof FIELD_TYPES)[number]> = ['select', 'multi_select'];
/** Options per select field. */
export const MAX_OPTIONS = 500;
/** Longest text value, in characters. */
export const MAX_TEXT_LENGTH = 10_000;
export const MAX_URL_LENGTH = 2048;

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
const FieldType = Type.Union(
  FIELD_TYPES.map((t) => Type.Literal(t)),
  {
    description:
      'text, number, date (YYYY-MM-DD), boolean, url (http/https), user (a user id), select (one option id) or multi_select (option ids).',
  },
);
const Name = Type.String({ minLength: 1, maxLength: 200, description: '1-200 characters, unique in the workspace.' });
const Description = Type.String({ maxLength: 2000 });
const OptionValue = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'Option text, 1-200 characters, unique within the field.',
});
const Projects = Type.Union([Type.Array(Id, { uniqueItems: true, maxItems: 1000 }), Type.Null()], {
  description: 'Ids of the projects the field applies to, or null for every project of the workspace.',
});

export const CustomFieldOption = Type.Object(
  {
    id: Type.Integer({
      description: 'Option id: what task values store, so renaming or reordering never changes them.',
    }),
    value: Type.String(),
    position: Type.Integer({ description: 'Order in which the option is offered, from 0.' }),
  },
  { $id: 'CustomFieldOption', title: 'CustomFieldOption' },
);

export const CustomFieldOptionDetail = Type.Object(
  {
    id: Type.Integer(),
    field: Type.Integer({ description: 'Id of the field that owns the option.' }),
    value: Type.String(),
    position: Type.Integer(),
  },
  { $id: 'CustomFieldOptionDetail', title: 'CustomFieldOptionDetail' },
);

export const CustomField = Type.Object(
  {
    id: Type.Integer({ description: "Field id: the key of the field in a task's `custom_fields`." }),
    name: Type.String(),
    type: FieldType,
    description: Type.String(),
    required: Type.Boolean({
      description: 'Tasks of the projects it applies to must get a value on create, and it cannot be cleared.',
    }),
    projects: Type.Union([Type.Array(Type.Integer()), Type.Null()], {
      description: 'Ids of the projects it applies to (only those you can see are listed), or null for every project.',
    }),
    options: Type.Array(Type.Ref(CustomFieldOption), {
      description: 'For select and multi_select, in position order; empty otherwise.',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'CustomField', title: 'CustomField' },
);
export type CustomFieldJson = Static<typeof CustomField>;

const NewOption = Type.Union([OptionValue, Type.Object({ value: OptionValue }, { additionalProperties: false })]);

export const CustomFieldCreateBody = Type.Object(
  {
    name: Name,
    type: FieldType,
    description: Type.Optional(Description),
    required: Type.Optional(Type.Boolean({ default: false })),
    projects: Type.Optional(Projects),
    options: Type.Optional(
      Type.Array(NewOption, {
        maxItems: MAX_OPTIONS,
        description: 'select and multi_select only: option texts (or `{value}`), in the order they are offered.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CustomFieldCreateInput = Static<typeof CustomFieldCreateBody>;

export const OptionInput = Type.Union([
  OptionValue,
  Type.Object(
    {
      id: Type.Optional(Id),
      value: Type.Optional(OptionValue),
      position: Type.Optional(
        Type.Integer({
          minimum: 0,
          description: 'Accepted so a read option can be sent back; the list order decides.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
]);
export type OptionInputItem = Static<typeof OptionInput>;

export const CustomFieldUpdateBody = Type.Object(
  {
    name: Type.Optional(Name),
    type: Type.Optional(
      Type.Union([FieldType], {
        description: "Accepted only when equal to the current type (a field's type never changes).",
      }),
    ),
    description: Type.Optional(Description),
    required: Type.Optional(Type.Boolean()),
    projects: Type.Optional(Projects),
    options: Type.Optional(
      Type.Array(OptionInput, {
        maxItems: MAX_OPTIONS,
        description:
          'The complete new list, in order. An item with `id` keeps that option (renamed when `value` is given); an item without `id` (a string or `{value}`) is a new option; an existing option left out is deleted, which is refused with 409 OPTION_IN_USE while tasks use it.',
      }),
    ),
  },
  { additionalProperties: false, description: 'Any subset of the fields; omitted ones keep their values.' },
);
export type CustomFieldUpdateInput = Static<typeof CustomFieldUpdateBody>;

export const OptionRenameBody = Type.Object({ value: OptionValue }, { additionalProperties: false });

export const ReorderBody = Type.Object(
  {
    field: Id,
    options: Type.Array(Id, {
      uniqueItems: true,
      maxItems: MAX_OPTIONS,
      description: 'Every option id of the field, in the new order.',
    }),
  },
  { additionalProperties: false },
);

export const CustomFieldListQuery = Type.Object({
  ...PaginationQuery,
  ordering: Type.Optional(
    Type.String({ maxLength: 200, description: 'name, created_at (and `-` forms). Default: name.' }),
  ),
  project: Type.Optional(
    Type.Union([Id], { description: 'Only fields that apply to this project (id of a project you can see).' }),
  ),
});

/** `custom_fields` in task bodies: `{"<field id>": value | null}`. */
export const CustomFieldValuesInput = Type.Record(Type.String({ pattern: '^[1-9][0-9]{0,9}$' }), Type.Unknown(), {
  additionalProperties: false,
  maxProperties: 200,
  description:
    'Values keyed by field id; null (or "" for text, [] for multi_select) clears one. Only the fields sent change. Types: text string; number; date "YYYY-MM-DD"; boolean; url http(s); user a user id that is a member of the project; select an option id; multi_select a list of distinct option ids.',
});
export type CustomFieldValuesInputJson = Static<typeof CustomFieldValuesInput>;
