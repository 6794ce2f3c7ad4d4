// `npm run bench [name…]`: runs every bench/<name>.ts (or the ones named), each printing its figures and a
// ratio against a baseline it measures in the same run.
import fs from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
const wanted = process.argv.slice(2);
const names = fs
  .readdirSync(dir)
  .filter((file) => file.endsWith('.ts') && file !== 'run.ts' && !file.startsWith('_'))
  .map((file) => file.replace(/\.ts$/, ''))
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort();

for (const name of names) {
  console.log(`\n=== bench/${name} ===`);
  const module = (await import(path.join(dir, `${name}.ts`))) as { run(): Promise<void> };
  await module.run();
}
process.exit(0);
