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
  // Stopped while the services still start: nothing is open yet to close (the data folder's lock
  // goes with the process).
  let running: { close(): Promise<unknown> }[] = [];
  const stop = () => void Promise.all(running.map((r) => r.close())).then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // The address as soon as the host listens: the page loads while the services start behind it.
  const { host, services } = await startBrowserMode({ port, dataDir: values.data }, (url) => {
    if (values.reason) console.log(values.reason);
    console.log(`Batch Image Studio (browser mode): ${url}`);
  });
  running = [host, services];
}

main().catch((err: unknown) => {
  console.error(`studio: ${(err as Error).message}`);
  process.exit(1);
});
