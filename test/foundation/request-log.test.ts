// The request line kyx writes itself must stay what pino would write for the same fields.
import pino from 'pino';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { REQUEST_COMPLETED, requestLogger } from '../../src/request-log.ts';
import { createTestApp } from '../helpers/app.ts';

function capture(level: string) {
  const lines: string[] = [];
  const logger = pino({ level, serializers: { req: (value: unknown) => value, res: (value: unknown) => value } }, { write: (line: string) => void lines.push(line) });
  return { logger, lines };
}

const sameTime = (line: string) => line.replace(/"time":\d+/, '"time":0');

describe('request log line', () => {
  const urls = [
    '/api/v1/validate-key',
    '/api/v1/checks/chk_1"quoted"\\back',
    '/api/v1/x\u0001y\ttab',
    `/api/v1/${'long'.repeat(30)}`,
    '/api/v1/é∑\u2028',
  ];
  for (const url of urls) {
    it(`is byte for byte pino's line for ${JSON.stringify(url).slice(0, 40)}`, () => {
      const { logger, lines } = capture('info');
      const line = { reqId: 'req_0AbC', method: 'GET', url, statusCode: 200, ms: 3 };
      requestLogger(logger)(line);
      logger.info(line, REQUEST_COMPLETED);
      expect(lines).toHaveLength(2);
      expect(sameTime(lines[0])).toBe(sameTime(lines[1]));
      expect(JSON.parse(lines[0]).url).toBe(url);
    });
  }

  it('follows the logger level', () => {
    const { logger, lines } = capture('warn');
    const write = requestLogger(logger);
    write({ reqId: 'req_1', method: 'GET', url: '/', statusCode: 200, ms: 0 });
    expect(lines).toHaveLength(0);
    logger.level = 'info';
    write({ reqId: 'req_1', method: 'GET', url: '/', statusCode: 200, ms: 0 });
    expect(lines).toHaveLength(1);
  });

  it('goes through pino for a destination that wants its metadata', () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, pino.multistream([{ stream: { write: (line: string) => void lines.push(line) } }]));
    requestLogger(logger)({ reqId: 'req_2', method: 'POST', url: '/x', statusCode: 201, ms: 1 });
    expect(JSON.parse(lines[0])).toMatchObject({ reqId: 'req_2', statusCode: 201, msg: REQUEST_COMPLETED });
  });
});

describe('the app writes one such line per request', () => {
  it('with the fields in pino order, the path without its query, and the route answered', async () => {
    const t = await createTestApp();
    onTestFinished(() => t.close());
    const lines: string[] = [];
    const app = await buildApp(t.context, { logger: { level: 'info', stream: { write: (line) => void lines.push(line) } } });
    const tenant = await t.tenant();
    const response = await app.inject({ method: 'GET', url: '/api/v1/validate-key?name=Jane%20Doe', headers: tenant.headers });
    await app.close();
    expect(response.statusCode).toBe(200);
    const completed = lines.map((line) => JSON.parse(line)).filter((line) => line.msg === REQUEST_COMPLETED);
    expect(completed).toHaveLength(1);
    expect(Object.keys(completed[0])).toEqual(['level', 'time', 'pid', 'hostname', 'reqId', 'method', 'url', 'statusCode', 'ms', 'msg']);
    expect(completed[0]).toMatchObject({ level: 30, pid: process.pid, reqId: response.headers['x-request-id'], method: 'GET', url: '/api/v1/validate-key', statusCode: 200 });
    expect(lines.join('')).not.toContain('Jane');
  });
});
