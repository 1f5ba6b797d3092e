import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSandbox } from '../sandbox/gateway';

/** A 200-image batch ZIP made by the sandbox, as a real download would bring it. Cached in bench/.cache. */
export async function batchZip(count = 200): Promise<{ file: string; successCount: number }> {
  const dir = join(import.meta.dirname, '.cache');
  const file = join(dir, `batch-${count}.zip`);
  if (existsSync(file)) return { file, successCount: count };
  mkdirSync(dir, { recursive: true });
  const sandbox = await createSandbox({ timeScale: 5000, config: { itemFailureRate: 0 } });
  try {
    const key = 'sk-sandbox-alice';
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const items = Array.from({ length: count }, (_, i) => ({
      custom_id: `shot-${i + 1}`,
      prompt: `Product shot ${i + 1}: ceramic mug on linen, soft window light, 产品图 ${i + 1}`,
    }));
    const created = (await (
      await fetch(`${sandbox.url}/v1/images/batches`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: 'imgvendor-3.1-flash-image', task_name: 'bench', items }),
      })
    ).json()) as { id: string };
    for (;;) {
      const batch = (await (
        await fetch(`${sandbox.url}/v1/images/batches/${created.id}`, { headers })
      ).json()) as { status: string };
      if (batch.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const zip = Buffer.from(
      await (
        await fetch(`${sandbox.url}/v1/images/batches/${created.id}/download`, { headers })
      ).arrayBuffer(),
    );
    writeFileSync(file, zip);
    return { file, successCount: count };
  } finally {
    await sandbox.close();
  }
}
