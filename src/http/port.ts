// The port the server listens on. uWS lets any socket of the same user share a port given by number
// (SO_REUSEPORT, which the server's own threads need to listen together), so a second server started by
// mistake on a port in use would quietly take part of its connections. A bind of our own first, without
// SO_REUSEPORT, fails then; and port 0 ("any free one") becomes a number the threads can share.
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { errorCode } from '../storage/errors.js';

export async function claimPort(host: string, port: number): Promise<number> {
  const probe = createServer();
  try {
    probe.listen(port, host);
    await once(probe, 'listening');
  } catch (error) {
    if (errorCode(error) === 'EADDRINUSE') {
      throw new Error(`port ${port} on ${host} is in use (another instance of this server?); stop what listens there or set PORT to another port`);
    }
    // e.g. a HOST that is no address of this machine, or a port below 1024 without the privilege
    throw new Error(`cannot listen on HOST=${host} PORT=${port}: ${(error as Error).message}`, { cause: error });
  }
  const claimed = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return claimed;
}
