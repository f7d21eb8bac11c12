// Worker-thread entry: a BlockDecoder answering the scan's requests over the parent port.
import { parentPort, workerData } from 'node:worker_threads';
import type { NodeTransform } from './types.js';
import { BlockDecoder, describeFault, loadNodeTransform, type DecoderReply, type DecoderRequest, type DecoderSetup } from './block-decoder.js';

const port = parentPort;
if (!port) throw new Error('decode-worker.js must run as a worker thread');
const setup = workerData as DecoderSetup;
let transform: NodeTransform | null = null;
try {
  // Requests that arrive meanwhile wait in the port until the listener below is attached.
  transform = setup.transform ? await loadNodeTransform(setup.transform) : null;
} catch (err) {
  port.postMessage({ kind: 'transform-failed', message: describeFault(err) } satisfies DecoderReply);
}
const decoder = new BlockDecoder(setup, transform);
port.on('message', (request: DecoderRequest) => {
  const answer = decoder.handle(request);
  if (answer) port.postMessage(answer.reply, answer.transfer);
  if (request.kind === 'close') port.close(); // nothing else keeps the thread alive: it exits
});
