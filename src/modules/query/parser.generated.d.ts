// Types of parser.generated.js (generated from grammar.peggy); the tree's shape is described in syntax.ts.
export interface ParseLocation {
  start: { offset: number };
  end: { offset: number };
}

export interface Expectation {
  type: 'literal' | 'class' | 'any' | 'end' | 'other';
  text?: string;
  description?: string;
}

export class SyntaxError extends Error {
  expected: Expectation[] | null;
  found: string | null;
  location: ParseLocation;
}

export function parse(input: string): unknown;
