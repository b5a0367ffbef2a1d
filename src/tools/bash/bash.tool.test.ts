import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentText, type ToolUseContext } from '../../core/index.js';
import { makeTestSession, runTool, type TestSession } from '../../testing/tool-harness.js';
import { createTaskOutputTool, type TaskOutputData } from '../tasks/task-output.tool.js';
import { BashAbortError, type BashOutput } from './bash-output.js';
import { createBashTool } from './bash.tool.js';
import { cwdResetNote } from './cwd.js';
import { killMarked, processesWithMarker, uniqueSleepMarker, waitFor } from '../../testing/processes.js';
import { defaultShellPort, type ShellAnalysisPort } from './shell-port.js';

let session: TestSession;
let bash: ReturnType<typeof createBashTool>;
beforeEach(async () => {
  session = await makeTestSession();
  bash = createBashTool({
    killGraceMs: 500,
    progressIntervalMs: 0,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.invalid',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.invalid',
    },
  });
});
afterEach(async () => {
  await session.cleanup();
});

/** Runs `input` through the runtime; the call's structured output (fails the test when the call fails). */
async function ok(
  input: Record<string, unknown>,
  onProgress?: (p: unknown) => void | Promise<void>,
): Promise<BashOutput> {
  const result = await runTool<BashOutput>(bash, input, session.context, {
    toolUseId: 'toolu_test',
    ...(onProgress ? { onProgress } : {}),
  });
  if (!result.ok) throw new Error(result.error);
  return result.data;
}

/** Runs `input` through the runtime; the failure: its text, the output the error carried, the status. */
async function fails(input: Record<string, unknown>, onProgress?: (p: unknown) => void | Promise<void>) {
  const result = await runTool<BashOutput>(bash, input, session.context, {
    ...(onProgress ? { onProgress } : {}),
  });
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.data)}`);
  return { message: result.error, data: result.data, status: result.record.status };
}

/** Drives only the tool's own `call` generator (no pipeline): for the tool's handling of an abort. */
async function drive(
  input: Record<string, unknown>,
  context: ToolUseContext,
  onProgress?: (p: unknown) => void,
) {
  const generator = bash.call(bash.inputSchema.parse(input), context);
  try {
    for (;;) {
      const step = await generator.next();
      if (step.done) return { ok: true as const, data: step.value.data };
      onProgress?.(step.value);
    }
  } catch (error) {
    return { ok: false as const, error: error as Error };
  }
}

describe('Bash read-only classification', () => {
  // First in the file: the parser of this worker process is not initialised yet.
  it('fails closed before the parser is ready, then follows the analysis once describeCall awaited it', async () => {
    const ctx = session.context;
    expect(bash.isReadOnly({ command: 'ls' }, ctx)).toBe(false);
    expect(bash.isConcurrencySafe({ command: 'ls' }, ctx)).toBe(false);
    const description = await bash.describeCall({ command: 'ls -la && git status' }, ctx);
    expect(description.subcommands?.map((s) => s.program)).toEqual(['ls', 'git']);
    expect(bash.isReadOnly({ command: 'ls -la' }, ctx)).toBe(true);
    expect(bash.isConcurrencySafe({ command: 'cat README.md' }, ctx)).toBe(true);
    expect(bash.isReadOnly({ command: 'rm -rf build' }, ctx)).toBe(false);
    expect(bash.isReadOnly({ command: 'ls > out.txt' }, ctx)).toBe(false);
    expect(bash.isReadOnly({ command: 'ls', run_in_background: true }, ctx)).toBe(false);
    expect(bash.toAutoClassifierInput({ command: 'npm test' })).toBe('npm test');
  });

  it('without a context (no session working directory) nothing is read-only or concurrency-safe', () => {
    expect(bash.isReadOnly({ command: 'ls' })).toBe(false);
    expect(bash.isConcurrencySafe({ command: 'ls' })).toBe(false);
  });

  it('analyses against the session working directory, not the process one', async () => {
    // `cat notes.txt` reads a file in the cwd: read-only inside the project, a read outside it
    // (and so not proven read-only for the engine's purposes) when the cwd is elsewhere.
    const seen: string[] = [];
    const counting = createBashTool({ shell: countingPort(seen) });
    const other = path.join(path.dirname(session.root), 'elsewhere');
    await mkdir(other, { recursive: true });
    session.context.setAppState((s) => ({ ...s, cwd: other }));
    counting.isConcurrencySafe({ command: 'cat notes.txt' }, session.context);
    expect(seen).toEqual([other]);
    expect(process.cwd()).not.toBe(other);
  });

  it('analyses each command once per call through the runtime (predicates, describeCall, post-run step)', async () => {
    const seen: string[] = [];
    const counting = createBashTool({ shell: countingPort(seen), progressIntervalMs: 0 });
    await counting.describeCall({ command: 'true' }, session.context); // the parser is ready from here on
    seen.length = 0;
    const run = await runTool<BashOutput>(counting, { command: 'ls | head -3' }, session.context);
    expect(run.ok).toBe(true);
    expect(seen).toEqual([session.root]);
  });
});

/** The default shell port, recording the cwd of every analysis it runs. */
function countingPort(seen: string[]): ShellAnalysisPort {
  return {
    ...defaultShellPort,
    analyzeSync(command, cwd) {
      seen.push(cwd);
      return defaultShellPort.analyzeSync(command, cwd);
    },
  };
}

describe('Bash output', () => {
  it('merges stdout and stderr in the order produced; stderr holds only harness notes', async () => {
    const data = await ok({ command: 'echo out; echo err >&2; echo out2' });
    expect(data).toMatchObject({
      stdout: 'out\nerr\nout2',
      stderr: '',
      interrupted: false,
      isImage: false,
      exitCode: 0,
    });
    expect(bash.mapToolResultToContent(data)).toBe('out\nerr\nout2');
  });

  it('decodes non-UTF-8 bytes with replacement characters', async () => {
    const data = await ok({ command: "printf '\\xff\\xfe ok\\n'" });
    expect(data.stdout).toBe('\uFFFD\uFFFD ok');
  });

  it('says so when there is no output', async () => {
    const data = await ok({ command: 'true' });
    expect(bash.mapToolResultToContent(data)).toBe('(Bash completed with no output)');
  });

  it('caps long output at 30,000 characters with head, tail and exact counts, and spills the full output', async () => {
    const data = await ok({ command: 'seq 1 200000' });
    const text = contentText(bash.mapToolResultToContent(data));
    expect(text.length).toBeLessThanOrEqual(30_000);
    expect(text.startsWith('1\n2\n3\n')).toBe(true);
    expect(data.stdout.endsWith('199999\n200000')).toBe(true);
    expect(text).toMatch(/\[\.\.\. \d+ lines \(\d+ chars\) truncated \.\.\.\]/);
    expect(data.persistedOutputPath).toBe(
      path.join(session.sessionDir, 'tool-results', 'toolu_test.bash-output.txt'),
    );
    const full = await readFile(data.persistedOutputPath!, 'utf8');
    expect(full.split('\n').length - 1).toBe(200_000);
    expect(data.persistedOutputSize).toBe(Buffer.byteLength(full));
    expect(data.totalLines).toBe(200_000);
    expect(text).toContain(data.persistedOutputPath!);
  });

  it('deletes the output file when the whole output was shown', async () => {
    await ok({ command: 'echo small' });
    const files = await import('node:fs/promises').then((fs) =>
      fs.readdir(path.join(session.sessionDir, 'tool-results')),
    );
    expect(files).toEqual([]);
  });

  it('returns data: image output as an image block', async () => {
    const png = await sharp({ create: { width: 4, height: 3, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    await writeFile(path.join(session.root, 'img.b64'), `data:image/png;base64,${png.toString('base64')}\n`);
    const data = await ok({ command: 'cat img.b64' });
    expect(data.isImage).toBe(true);
    expect(bash.mapToolResultToContent(data)).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } },
    ]);
  });

  it('treats a data: URL that does not decode as an image as text', async () => {
    const data = await ok({ command: "echo 'data:image/png;base64,aGVsbG8='" });
    expect(data.isImage).toBe(false);
    expect(data.stdout).toBe('data:image/png;base64,aGVsbG8=');
  });

  it('streams progress events while the command runs', async () => {
    const marker = path.join(session.root, 'go');
    const data = await ok(
      { command: `echo working; while [ ! -f ${marker} ]; do sleep 0.02; done` },
      async (p) => {
        if ((p as { totalLines: number }).totalLines >= 1) await writeFile(marker, '');
      },
    );
    expect(data.stdout).toBe('working');
  });
});

describe('Bash exit codes', () => {
  it.each([
    ['grep nothing-matches /dev/null', 'grep exit 1 means no match'],
    ['diff <(echo a) <(echo b)', 'diff exit 1 means the inputs differ'],
    ['test -f /no/such/file', 'test exit 1 means false'],
  ])('%j is not an error (%s)', async (command) => {
    const data = await ok({ command });
    expect(data.exitCode).toBe(1);
    expect(data.returnCodeInterpretation).toEqual(expect.any(String));
  });

  it.each([
    ['false', 'Exit code 1', 'plain failure'],
    ['echo partial; exit 3', 'Exit code 3\npartial', 'output follows the exit line'],
    ['grep -E "(" /dev/null', 'Exit code 2', 'grep exit 2 is a real error'],
  ])('%j fails with %j (%s)', async (command, start) => {
    const error = await fails({ command });
    expect(error.status).toBe('error');
    expect(error.message.startsWith(start)).toBe(true);
    expect(error.data.interrupted).toBe(false);
  });
});

describe('Bash timeouts and abort', () => {
  it('stops the process group at the timeout and says how', async () => {
    const error = await fails({ command: 'echo begun; while :; do sleep 0.05; done', timeout: 300 });
    expect(error.status).toBe('error');
    expect(error.message).toBe(
      'Command timed out after 300ms; its process group was stopped with SIGTERM.\nbegun\nTerminated',
    );
    expect(error.data).toMatchObject({
      interrupted: true,
      timedOutAfterMs: 300,
      killSignal: 'SIGTERM',
    });
  });

  it('escalates to SIGKILL for a command that ignores SIGTERM', async () => {
    const error = await fails({ command: "trap '' TERM; while :; do sleep 0.05; done", timeout: 200 });
    expect(error.message).toMatch(
      /^Command timed out after 200ms; it did not exit within 500ms of SIGTERM and was killed with SIGKILL\./,
    );
  });

  it('aborts through the context abort controller, killing the children', async () => {
    const pidFile = path.join(session.root, 'child.pid');
    const controller = new AbortController();
    const result = await drive(
      { command: `sleep 300 & echo $! > ${pidFile}; echo started; wait` },
      { ...session.context, abortController: controller, toolUseId: 'toolu_abort' },
      (p) => {
        if ((p as { totalLines: number }).totalLines >= 1) controller.abort();
      },
    );
    expect(result.ok).toBe(false);
    const error = (result as { error: Error }).error;
    expect(error).toBeInstanceOf(BashAbortError);
    expect(error.name).toBe('AbortError');
    expect(error.message).toMatch(
      /^Command was aborted after .*; its process group was stopped with SIGTERM\./,
    );
    const childPid = Number((await readFile(pidFile, 'utf8')).trim());
    expect(() => process.kill(childPid, 0)).toThrow();
  });

  it('refuses to start when the turn is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await drive(
      { command: 'touch should-not-exist' },
      { ...session.context, abortController: controller },
    );
    expect(result.ok).toBe(false);
    await expect(stat(path.join(session.root, 'should-not-exist'))).rejects.toThrow();
  });
});

describe('Bash: a foreground command ends with its process group', () => {
  it.each([
    ['%s & echo started', 'a job started with &'],
    ['nohup %s >/dev/null 2>&1 & echo started', 'nohup keeps the process in the group'],
    ["bash -c '%s & wait' & echo started", 'a grandchild of a background subshell'],
  ])('%s: stopped when the command returns, and the result says so (%s)', async (template, _why) => {
    const marker = uniqueSleepMarker();
    try {
      const out = await ok({ command: template.replace('%s', `sleep ${marker}`) });
      expect(out.stdout).toBe('started');
      expect(out.stderr).toMatch(/left \d+ process(es)? running .* stopped with SIGTERM .*run_in_background/);
      expect(processesWithMarker(marker)).toEqual([]);
    } finally {
      killMarked(marker);
    }
  });

  it('a command that leaves nothing behind gets no such note', async () => {
    const out = await ok({ command: 'sleep 0.1; echo done' });
    expect(out.stderr).not.toMatch(/left .* running/);
  });

  it('run_in_background keeps a process running after the call returns', async () => {
    const marker = uniqueSleepMarker();
    const out = await ok({ command: `sleep ${marker}`, run_in_background: true });
    expect(await waitFor(() => processesWithMarker(marker).length > 0)).toBe(true);
    await session.context.services.tasks.stop(out.backgroundTaskId as string);
    expect(processesWithMarker(marker)).toEqual([]);
  });
});

describe('Bash working directory', () => {
  it('persists a cd inside the project across calls', async () => {
    await mkdir(path.join(session.root, 'sub', 'deeper'), { recursive: true });
    await ok({ command: 'cd sub' });
    expect(session.state().cwd).toBe(path.join(session.root, 'sub'));
    const data = await ok({ command: 'cd deeper && pwd' });
    expect(data.stdout).toBe(path.join(session.root, 'sub', 'deeper'));
    expect((await ok({ command: 'pwd' })).stdout).toBe(path.join(session.root, 'sub', 'deeper'));
  });

  it('resets to the project root, with a note, after a cd out of the allowed directories', async () => {
    const data = await ok({ command: 'cd / && echo left' });
    expect(session.state().cwd).toBe(session.root);
    expect(data.stderr).toBe(cwdResetNote(session.root));
    expect(bash.mapToolResultToContent(data)).toBe(`left\nShell cwd was reset to ${session.root}`);
    expect((await ok({ command: 'pwd' })).stdout).toBe(session.root);
  });

  it('never changes the session cwd from a background command', async () => {
    const data = await ok({ command: 'cd / && echo bg', run_in_background: true });
    await session.services.tasks.waitForEnd(data.backgroundTaskId!, 60_000);
    expect(session.state().cwd).toBe(session.root);
  });
});

describe('Bash background and follow-up tools', () => {
  it('returns a task id at once; TaskOutput reads its output', async () => {
    const data = await ok({
      command: 'echo from-background',
      run_in_background: true,
      description: 'Say hi',
    });
    expect(bash.mapToolResultToContent(data)).toBe(
      `Command running in background with ID: ${data.backgroundTaskId}. Output is being written to: ${data.backgroundOutputFile}`,
    );
    const read = await runTool<TaskOutputData>(
      createTaskOutputTool(),
      { task_id: data.backgroundTaskId },
      session.context,
    );
    expect(read.ok && read.data.task).toMatchObject({
      status: 'completed',
      output: 'from-background',
      description: 'Say hi',
    });
  });
});

describe('Bash validation, git events and warnings', () => {
  it.each([
    ['sleep 10', false, 'a long foreground sleep is refused'],
    ['sleep 1 && echo ok', true, 'a short sleep is fine'],
    ['', false, 'an empty command is refused'],
  ])('validateInput(%j) ok=%s (%s)', async (command, expected) => {
    expect((await bash.validateInput({ command }, session.context)).ok).toBe(expected);
  });

  it('reports a commit as a git event with its sha', async () => {
    await ok({ command: 'git init -q -b main && echo x > a.txt && git add a.txt' });
    const data = await ok({ command: 'git commit -m first' });
    expect(data.stdout).toMatch(/^\[main \(root-commit\) [0-9a-f]+\] first/);
    expect(data.gitOperations).toEqual([
      { kind: 'commit', branch: 'main', sha: expect.stringMatching(/^[0-9a-f]{7,}$/), amend: false },
    ]);
  });

  it('warns the user about a destructive command without telling the model', async () => {
    await mkdir(path.join(session.root, 'build'));
    const data = await ok({ command: 'rm -rf build' });
    expect(data.destructiveWarning).toMatch(/recursively removes .*build: a recursive removal/);
    expect(bash.isDestructive({ command: 'rm -rf build' })).toBe(true);
    expect(bash.mapToolResultToContent(data)).toBe('(Bash completed with no output)');
    expect(data.noOutputExpected).toBe(true);
  });
});
