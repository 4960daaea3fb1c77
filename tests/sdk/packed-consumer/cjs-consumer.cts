// The same integrator in CommonJS (`require`), compiled and run by tests/sdk/packed-install.test.ts.
/* eslint-disable @typescript-eslint/no-require-imports -- loading the packages with require() is the point */
import client = require('@tasktracker/client');
import webhooks = require('@tasktracker/webhooks');
/* eslint-enable @typescript-eslint/no-require-imports */

async function main(): Promise<void> {
  const tt = client.createClient({ baseUrl: process.env.TT_BASE_URL ?? '', token: process.env.TT_TOKEN ?? '' });
  const me = await tt.get('/api/v1/me/');
  const organization = me.data.organization;
  // @ts-expect-error the slug is a string; compiles (failing the directive) if the declarations became `any`
  const slugIsTyped: number = organization.slug;
  void slugIsTyped;
  const signature = webhooks.computeSignature('whsec_cjs', '1', '{}');
  console.log(JSON.stringify({ organization: organization.slug, signature: signature.slice(0, 7) }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
