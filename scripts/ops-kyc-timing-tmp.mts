import { readFile } from 'node:fs/promises';
import { createKycEngine } from '../src/kyc/engine.ts';
import { decodeImage } from '../src/kyc/intake.ts';
const engine = await createKycEngine({ workers: 1 });
const [document, selfie] = await Promise.all([
  decodeImage('documentImage', await readFile('examples/kyc/passport.jpg')),
  decodeImage('selfieImage', await readFile('examples/kyc/selfie.jpg')),
]);
const rows = [];
for (let i = 0; i < 6; i++) {
  const t = performance.now();
  const s = await engine.analyse({ documentType: 'passport', document, selfie, metadata: { firstName: 'Anna Maria', lastName: 'Eriksson' }, now: new Date().toISOString() });
  rows.push([Math.round(performance.now() - t), s.timings.ocrMs, s.timings.faceMs]);
}
console.log(JSON.stringify(rows));
await engine.close();
