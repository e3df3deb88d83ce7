import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

/** One message ESLint reports for a file. */
export interface LintMessage {
  ruleId: string | null;
  severity: number;
  message: string;
}

// Runs as its own ES module process: ESLint loads eslint.config.mjs with import(), which Jest's
// module sandbox cannot do. One line of JSON in ({file, source}), one line out (its messages).
const SERVER = `
import { ESLint } from 'eslint';
import { createInterface } from 'node:readline';
const eslint = new ESLint({ cwd: process.cwd() });
for await (const line of createInterface({ input: process.stdin })) {
  const { file, source } = JSON.parse(line);
  const [result] = await eslint.lintText(source, { filePath: file });
  process.stdout.write(JSON.stringify(result.messages) + '\\n');
}
`;

/**
 * ESLint with the workspace's configuration in one long-lived process, so that linting an
 * imaginary file costs the lint, not ESLint's start (seconds, with the Nx project graph).
 */
export class TextLinter {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly answers: Array<(messages: LintMessage[]) => void> = [];
  private failure = '';

  constructor(cwd: string) {
    this.child = spawn(process.execPath, ['--input-type=module', '-e', SERVER], { cwd, env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' } });
    this.child.stderr.on('data', (chunk: Buffer) => (this.failure += chunk.toString()));
    createInterface({ input: this.child.stdout }).on('line', (line) => this.answers.shift()?.(JSON.parse(line) as LintMessage[]));
    this.child.on('exit', () => {
      for (const answer of this.answers.splice(0)) answer([{ ruleId: null, severity: 2, message: `the linter ended: ${this.failure}` }]);
    });
  }

  /** The messages ESLint reports for `source` as if it were the workspace's file `file`. */
  lint(file: string, source: string): Promise<LintMessage[]> {
    return new Promise((resolve) => {
      this.answers.push(resolve);
      this.child.stdin.write(`${JSON.stringify({ file, source })}\n`);
    });
  }

  close(): void {
    this.child.stdin.end();
  }
}
