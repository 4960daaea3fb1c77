#!/usr/bin/env node
// Runs the TypeScript sources directly: `npm install` is the whole setup, no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
