// Face-match threshold calibration (run by hand: npx tsx test/kyc/calibrate-face.ts). Not a test.
// Genuine pairs: the specimen passport's portrait against selfies of the same person made from the public-domain
// portrait with crops, re-lighting, blur, JPEG loss, rotation, greyscale and mirroring.
// Impostor pairs: that portrait against every face the detector finds in the screenshots shipped in
// node_modules/@vladmandic/human/assets (many different people; read in place, never copied into the repository).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { renderPassport, DEFAULT_PORTRAIT } from '../../scripts/make-kyc-specimen.ts';
import { createFaceEngine, faceSimilarity, type DetectedFace } from '../../src/kyc/face.ts';
import { decodeImage } from '../../src/kyc/intake.ts';

const face = await createFaceEngine({ maxFaces: 200 });
const detect = async (bytes: Buffer) => face.detect((await decodeImage('selfieImage', bytes)).pixels);
const largest = (faces: DetectedFace[]) => faces.sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0]!;

const portrait = await readFile(DEFAULT_PORTRAIT);
const reference = largest(await detect(await renderPassport({ portrait })));

const variants: [string, Sharp][] = [
  ['original', sharp(portrait)],
  ['tight crop', sharp(portrait).extract({ left: 140, top: 30, width: 180, height: 200 })],
  ['darker', sharp(portrait).modulate({ brightness: 0.6 })],
  ['brighter', sharp(portrait).modulate({ brightness: 1.4 })],
  ['warm relight', sharp(portrait).linear([1.15, 1.0, 0.8], [10, 0, -10])],
  ['gamma 2.2', sharp(portrait).gamma(2.2)],
  ['blur 1.5', sharp(portrait).blur(1.5)],
  ['jpeg q30', sharp(await sharp(portrait).jpeg({ quality: 30 }).toBuffer())],
  ['downscaled 200px', sharp(portrait).resize(200)],
  ['rotated +8°', sharp(portrait).rotate(8, { background: '#808080' })],
  ['rotated -8°', sharp(portrait).rotate(-8, { background: '#808080' })],
  ['greyscale', sharp(portrait).greyscale()],
  ['mirrored', sharp(portrait).flop()],
  ['low contrast', sharp(portrait).linear(0.6, 50)],
];
const genuine: number[] = [];
for (const [name, image] of variants) {
  const faces = await detect(await image.png().toBuffer());
  if (!faces.length) { console.log(`genuine ${name}: no face`); continue; }
  const s = faceSimilarity(reference.embedding, largest(faces).embedding);
  genuine.push(s);
  console.log(`genuine ${name.padEnd(18)} ${s.toFixed(3)}`);
}

const impostor: number[] = [];
const assets = path.join(path.dirname(new URL(import.meta.resolve('@vladmandic/human')).pathname), '..', 'assets');
for (const file of ['screenshot-facematch.jpg', 'screenshot-facedetect.jpg', 'screenshot-faceid.jpg', 'samples.jpg']) {
  const faces = await detect(await readFile(path.join(assets, file)));
  for (const f of faces) if (f.embedding.length) impostor.push(faceSimilarity(reference.embedding, f.embedding));
  console.log(`impostor faces in ${file}: ${faces.length}`);
}
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `n=${s.length} min=${s[0]!.toFixed(3)} p50=${s[Math.floor(s.length / 2)]!.toFixed(3)} max=${s.at(-1)!.toFixed(3)}`;
};
console.log(`genuine  ${stats(genuine)}`);
console.log(`impostor ${stats(impostor)}`);
await face.close();
