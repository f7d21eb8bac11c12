// Worker-thread entry: a BlockDecoder answering the scan's requests over the parent port.
import { parentPort, workerData } from 'node:worker_threads';
import { BlockDecoder, type DecoderRequest, type DecoderSetup } from './block-decoder.js';

const port = parentPort;
if (!port) throw new Error('decode-worker.js must run as a worker thread');
const decoder = new BlockDecoder(workerData as DecoderSetup);
port.on('message', (request: DecoderRequest) => {
  const answer = decoder.handle(request);
  if (answer) port.postMessage(answer.reply, answer.transfer);
  if (request.kind === 'close') port.close(); // nothing else keeps the thread alive: it exits
});
