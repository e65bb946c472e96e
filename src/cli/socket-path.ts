import path from 'node:path';

// sun_path holds 108 bytes on Linux, including the terminating zero (104 on macOS).
export const MAX_SOCKET_PATH_BYTES = process.platform === 'linux' ? 107 : 103;

export function controlSocketPath(dataDir: string): string {
  return path.join(dataDir, 'atrium.sock');
}

export function socketPathProblem(dataDir: string): string | null {
  const socket = controlSocketPath(dataDir);
  const bytes = Buffer.byteLength(socket);
  if (bytes <= MAX_SOCKET_PATH_BYTES) return null;
  return `DATA_DIR: the control socket ${socket} would be ${bytes} bytes long, more than the ${MAX_SOCKET_PATH_BYTES} a Unix socket path allows; choose a shorter DATA_DIR`;
}
