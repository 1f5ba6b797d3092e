import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * Runs a test runner script as its own process under kill-at-rename.mjs: with `killAt`, it is
 * SIGKILLed right after that many renames (counted once the runner says so), as a power cut or a
 * task manager would end the studio. Answers the lines it printed and how it ended.
 */
export function runUnderKill(
  script: string,
  args: string[],
  killAt = 0,
): Promise<{ lines: string[]; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--import', './src-main/test/helpers/kill-at-rename.mjs', script, ...args],
      { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, KILL_AT_RENAME: String(killAt) } },
    );
    const lines: string[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve({ lines, signal });
    });
  });
}
