import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The reference: a stock ipykernel through jupyter_client, both from Debian, on Debian's Python. */
export const REFERENCE_PYTHON = '/usr/bin/python3';
export const APT_PACKAGES = 'python3-ipykernel python3-jupyter-client';
const HELPER = fileURLToPath(new URL('./jupyter-client-bench.py', import.meta.url));
const COMMAND_TIMEOUT_MS = 90_000;

/** The jupyter_client helper: one command at a time, answered by one JSON line it timed itself. */
export class JupyterReference {
  readonly kernelPids: number[] = [];
  private buffered = '';
  private stderr = '';
  private waiter: { resolve: (line: string) => void; reject: (err: Error) => void } | null = null;
  private exited: Error | null = null;

  private constructor(private readonly child: ChildProcess) {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      this.buffered += chunk;
      let newline = this.buffered.indexOf('\n');
      while (newline >= 0) {
        const line = this.buffered.slice(0, newline);
        this.buffered = this.buffered.slice(newline + 1);
        this.waiter?.resolve(line);
        this.waiter = null;
        newline = this.buffered.indexOf('\n');
      }
    });
    // The kernels it starts inherit this stream (ipykernel and debugpy warnings); only the tail matters.
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-4000);
    });
    child.on('error', (err) => this.fail(err.message));
    child.on('exit', (code, signal) => this.fail(`exited (${code ?? signal})`));
  }

  static async start(
    env: NodeJS.ProcessEnv,
    cwd: string,
  ): Promise<{ ref: JupyterReference; versions: string }> {
    const child = spawn(REFERENCE_PYTHON, ['-u', HELPER], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const ref = new JupyterReference(child);
    const hello = await ref.next().catch(async (err: unknown) => {
      await ref.close();
      throw err;
    });
    return { ref, versions: `ipykernel ${hello.ipykernel} via jupyter_client ${hello.jupyter_client}` };
  }

  call(command: Record<string, unknown>): Promise<Record<string, unknown>> {
    const answer = this.next();
    this.child.stdin!.write(`${JSON.stringify(command)}\n`);
    return answer;
  }

  /** Ends the helper (it stops its kernel on end of input), then makes sure no kernel it started is left. */
  async close(): Promise<void> {
    if (!this.exited) {
      const gone = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.stdin!.end();
      const term = setTimeout(() => this.child.kill('SIGTERM'), 10_000);
      const kill = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
      await gone;
      clearTimeout(term);
      clearTimeout(kill);
    }
    for (const pid of this.kernelPids) {
      if (!isIpykernel(pid)) continue; // gone, as it should be (or the pid now belongs to someone else)
      process.kill(pid, 'SIGKILL');
      process.stderr.write(`[bench] an ipykernel (pid ${pid}) outlived its helper; killed it\n`);
    }
  }

  private fail(why: string): void {
    this.exited ??= new Error(`the jupyter_client helper ${why}: ${this.stderr}`);
    this.waiter?.reject(this.exited);
    this.waiter = null;
  }

  private async next(): Promise<Record<string, unknown>> {
    if (this.exited) throw this.exited;
    let timer: NodeJS.Timeout | undefined;
    const line = await new Promise<string>((resolve, reject) => {
      this.waiter = { resolve, reject };
      timer = setTimeout(
        () => reject(new Error(`the jupyter_client helper did not answer in time: ${this.stderr}`)),
        COMMAND_TIMEOUT_MS,
      );
    }).finally(() => clearTimeout(timer));
    const answer = JSON.parse(line) as Record<string, unknown>;
    if (typeof answer.pid === 'number') this.kernelPids.push(answer.pid);
    if (answer.ok !== true) throw new Error(`jupyter_client helper: ${String(answer.error)}`);
    return answer;
  }
}

/** Whether that process is still one of the ipykernels (Linux: its command line; elsewhere: it exists). */
function isIpykernel(pid: number): boolean {
  try {
    if (existsSync('/proc/self')) return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('ipykernel');
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Why the reference cannot run here, or null when it can. */
export function referenceMissing(env: NodeJS.ProcessEnv): string | null {
  if (!existsSync(REFERENCE_PYTHON)) return `${REFERENCE_PYTHON} does not exist`;
  const check = spawnSync(REFERENCE_PYTHON, ['-c', 'import ipykernel, jupyter_client'], {
    env,
    timeout: 30_000,
    encoding: 'utf8',
  });
  if (check.status === 0) return null;
  const why = check.error?.message ?? check.stderr.trim().split('\n').at(-1);
  return `${REFERENCE_PYTHON} cannot import ipykernel and jupyter_client (${why || `exit ${check.status}`})`;
}
