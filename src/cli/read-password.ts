import { CommandError } from './errors.ts';

export const MIN_PASSWORD_LENGTH = 8;

export function checkPassword(command: string, password: string): string {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new CommandError(`${command}: the password must have at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  return password;
}

/**
 * The password for `member set-password` when --password is not given: typed at a prompt that
 * does not echo it (twice, to catch a typo), or the first line of stdin when stdin is not a terminal.
 */
export async function readPassword(command: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) return checkPassword(command, firstLine(await readAll(stdin)));
  const first = await promptHidden('New password: ');
  checkPassword(command, first);
  const second = await promptHidden('Again: ');
  if (first !== second) throw new CommandError(`${command}: the two passwords differ; nothing changed`);
  return first;
}

function firstLine(text: string): string {
  return text.split(/\r?\n/)[0] ?? '';
}

async function readAll(stream: NodeJS.ReadStream): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += chunk;
  return text;
}

function promptHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (error: Error | null) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') return finish(null);
        if (char === '\u0003') return finish(new CommandError('cancelled; nothing changed'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.setEncoding('utf8');
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}
