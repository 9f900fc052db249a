// The floor of any replay, as a process of its own: `node bare-read.mjs <file.jsonl.gz>` reads the
// recording, gunzips it, splits it into lines and parses each with JSON.parse, nothing else, then
// prints the line count. Plain Node, no project code: what the shortest honest script that reads
// the same file costs a user, start-up included. Reads and gunzips in 1 MiB chunks and splits
// lines by hand (faster than node:readline), so the floor is not inflated by a slow reader.
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';

const CHUNK = 1 << 20;
const input = createReadStream(process.argv[2], { highWaterMark: CHUNK }).pipe(createGunzip({ chunkSize: CHUNK }));
let lines = 0;
let carry = '';
for await (const chunk of input) {
  const text = carry + chunk.toString('utf8');
  let start = 0;
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
    if (end > start) {
      JSON.parse(text.slice(start, end));
      lines++;
    }
    start = end + 1;
  }
  carry = text.slice(start);
}
if (carry.length > 0) {
  JSON.parse(carry);
  lines++;
}
console.log(lines);
