import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Requests the MCP server makes on an agent's behalf (src/modules/mcp/) run inside this context:
 * their principal gets `source: 'agent'`, so the events they cause say so. It is a context, not
 * a header, so no request from outside can claim it.
 */
const agentCalls = new AsyncLocalStorage<true>();

export function asAgent<T>(call: () => Promise<T>): Promise<T> {
  return agentCalls.run(true, call);
}

export function isAgentCall(): boolean {
  return agentCalls.getStore() === true;
}
