import { readFileSync } from 'node:fs';

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
};

/** Printed on every report so a reader can tell which release produced it. */
export const SERVICE_VERSION = `${packageJson.name} ${packageJson.version}`;
