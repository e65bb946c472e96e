import net from 'node:net';
import { ConfigError } from '../config/config.ts';

/** One line for a reason the server cannot listen on HOST:PORT, naming the setting to change; null for anything else. */
export function listenProblem(error: unknown, host: string, port: number): string | null {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'EADDRINUSE':
      return `PORT: ${port} is already in use on ${host} (another Atrium, or another program); stop it or set PORT to a free port`;
    case 'EACCES':
      return `PORT: this user may not listen on port ${port} (ports below 1024 need privileges); set PORT to 1024 or above`;
    case 'EADDRNOTAVAIL':
      return `HOST: ${host} is not an address of this machine; set HOST to one of its addresses, 127.0.0.1 (this machine only) or 0.0.0.0 (every network)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NONAME':
      return `HOST: "${host}" does not resolve to an address; set HOST to an IP address such as 127.0.0.1 or 0.0.0.0`;
    default:
      return null;
  }
}

/**
 * Listens on HOST:PORT for a moment and lets go: a port in use or a HOST that cannot be listened
 * on is said before anything else happens (before a database is opened, created or seeded). With
 * PORT 0 the probe still binds HOST, so an address that is not this machine's is caught as early.
 */
export async function checkListen(host: string, port: number): Promise<void> {
  const probe = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ host, port, exclusive: true }, () => resolve());
    });
  } catch (error) {
    const problem = listenProblem(error, host, port);
    if (problem) throw new ConfigError(problem);
    throw error;
  } finally {
    await new Promise<void>((resolve) => (probe.listening ? probe.close(() => resolve()) : resolve()));
  }
}
