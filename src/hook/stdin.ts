/** Reads the hook payload from stdin, bounded in size and time so a hook can never hang. */

const MAX_BYTES = 8 * 1024 * 1024;
const TIMEOUT_MS = 3000;

export function readStdin(stream: NodeJS.ReadableStream = process.stdin): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stream.removeAllListeners('data');
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(finish, TIMEOUT_MS);
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BYTES) return finish();
      chunks.push(chunk);
    });
    stream.on('end', finish);
    stream.on('error', finish);
  });
}
