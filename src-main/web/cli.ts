import { parseArgs } from 'node:util';
import { startBrowserMode } from './browser-mode';

/** `npm run web [-- --port P] [--data DIR]`: the studio in any browser on this machine. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env.STUDIO_PORT ?? '0' },
      data: { type: 'string' },
      reason: { type: 'string' },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be a port number, got "${values.port}"`);
  const { host, services } = await startBrowserMode({ port, dataDir: values.data });
  if (values.reason) console.log(values.reason);
  console.log(`Batch Image Studio (browser mode): ${host.url}`);
  const stop = () => {
    void Promise.all([host.close(), services.close()]).then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(`studio: ${(err as Error).message}`);
  process.exit(1);
});
