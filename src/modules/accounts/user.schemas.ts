import { Type } from '@sinclair/typebox';

/** A person or service account as shown on records they wrote (comment author, uploader). */
export const UserRef = Type.Object(
  {
    id: Type.Integer({ description: 'User id (humans and service accounts share one id space).' }),
    name: Type.String(),
  },
  { $id: 'UserRef', title: 'UserRef' },
);
