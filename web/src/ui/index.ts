/** The design system: the building blocks every screen is made of (styles in styles.css). */
export { Avatar, initials } from './avatar.tsx';
export { ConfirmDialog } from './confirm.tsx';
export { Dialog } from './dialog.tsx';
export { ErrorNote } from './error-note.tsx';
export { categoryLabel, formatDate, formatDateTime } from './format.ts';
export { EditDelete, Field, Form, IdSelect, SaveCancel } from './forms.tsx';
export { Picker, type PickerOption } from './picker.tsx';
export { Notices, errorNotice, useNotify, type Notice } from './notices.tsx';
export { SortableList, moved } from './sortable.tsx';
export { Spinner } from './spinner.tsx';
export { SecretNote, Table } from './table.tsx';
