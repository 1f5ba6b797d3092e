// Preloaded with --import into the replace runner: counts every rename the process makes once the
// runner sets globalThis.countRenames, and SIGKILLs the process right after the Nth
// (KILL_AT_RENAME=N), the way a power cut or a task manager would end it between two steps.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const killAt = Number(process.env.KILL_AT_RENAME ?? 0);
let count = 0;

function after() {
  if (!globalThis.countRenames) return;
  count += 1;
  globalThis.renameCount = count;
  if (count === killAt) {
    fs.writeSync(1, `killed after rename ${count}\n`);
    process.kill(process.pid, 'SIGKILL');
  }
}

const renameSync = fs.renameSync;
fs.renameSync = function (...args) {
  const result = renameSync.apply(this, args);
  after();
  return result;
};
const rename = fs.rename;
fs.rename = function (from, to, callback) {
  return rename.call(this, from, to, (err) => {
    if (!err) after();
    callback(err);
  });
};
const renamePromise = fs.promises.rename;
fs.promises.rename = async function (...args) {
  await renamePromise.apply(this, args);
  after();
};
syncBuiltinESMExports();
