import { parseArgs } from 'node:util';
import { loadConfigFile } from './config';
import { createSandbox } from './gateway';

const USAGE = `usage: npm run sandbox -- [--port 8787] [--host 127.0.0.1] [--time-scale N] [--faults SPEC] [--data DIR] [--config FILE]
       [--echo-key-in-errors] [--deflate-zips]

  --time-scale N   gateway seconds per real second (default 1: a batch takes minutes; 100: seconds)
  --faults SPEC    e.g. "all=0.2" or "503=0.1,reset=0.05,truncate=0.3,slow=0.1,slow_ms=2000,seed=7"
  --data DIR       keep state across restarts in DIR (default: in memory)
  --config FILE    JSON that replaces sections of the default config (keys, models, limits, timing)
  --echo-key-in-errors   repeat a rejected key in errors (message, encoded forms, headers), as some deployed gateways do
  --deflate-zips   deflate the entries of batch ZIPs instead of storing them`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      'time-scale': { type: 'string', default: '1' },
      faults: { type: 'string' },
      data: { type: 'string' },
      config: { type: 'string' },
      'echo-key-in-errors': { type: 'boolean' },
      'deflate-zips': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  const timeScale = Number(values['time-scale']);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be a port number, got "${values.port}"`);
  if (!(timeScale > 0))
    throw new Error(`--time-scale must be a positive number, got "${values['time-scale']}"`);

  const sandbox = await createSandbox({
    port,
    host: values.host,
    timeScale,
    faults: values.faults,
    dataDir: values.data,
    config: {
      ...(values.config ? loadConfigFile(values.config) : {}),
      ...(values['echo-key-in-errors'] ? { echoKeyInErrors: true } : {}),
      ...(values['deflate-zips'] ? { deflateZips: true } : {}),
    },
  });
  console.log(`listening ${sandbox.url}`);

  const stop = () => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(`sandbox: ${(err as Error).message}\n\n${USAGE}`);
  process.exit(1);
});
