// The request line kyx writes itself must stay what pino would write for the same fields.
import pino from 'pino';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { REQUEST_COMPLETED, requestLogger, writesDefaultLine } from '../../src/request-log.ts';
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

  // A lone surrogate: pino writes a short string raw (the destination's UTF-8 then makes it U+FFFD) and hands a long
  // one to JSON.stringify (\ud800). The line here is the same for the long one and for a short one without a quote
  // or backslash; a short one with either goes to JSON.stringify here, so the surrogate stays recoverable: on purpose.
  it('writes a long string with a lone surrogate as pino does', () => {
    const url = `/api/v1/${'é'.repeat(120)}\ud800`;
    const { logger, lines } = capture('info');
    const line = { reqId: 'req_0AbC', method: 'GET', url, statusCode: 200, ms: 3 };
    requestLogger(logger)(line);
    logger.info(line, REQUEST_COMPLETED);
    expect(sameTime(lines[0])).toBe(sameTime(lines[1]));
    expect(lines[0]).toContain('\\ud800');
    expect(JSON.parse(lines[0]).url).toBe(url);
  });

  it('keeps a lone surrogate next to a quote recoverable, where pino loses it', () => {
    const url = '/api/v1/a"\ud800';
    const { logger, lines } = capture('info');
    const line = { reqId: 'req_0AbC', method: 'GET', url, statusCode: 200, ms: 3 };
    requestLogger(logger)(line);
    logger.info(line, REQUEST_COMPLETED);
    const [ours, pinos] = lines.map((text) => JSON.parse(Buffer.from(text, 'utf8').toString('utf8')));
    expect(ours.url).toBe(url);
    expect(pinos.url).toBe('/api/v1/a"\ufffd');
    // every other byte is pino's
    expect(sameTime(lines[0]).replace('\\ud800', '\ufffd')).toBe(sameTime(lines[1]).replace('\ud800', '\ufffd'));
  });

  it('writes a number that is not finite as null, as pino does', () => {
    for (const ms of [Number.NaN, Number.POSITIVE_INFINITY, -0, 1.5]) {
      const { logger, lines } = capture('info');
      const line = { reqId: 'req_0AbC', method: 'GET', url: '/', statusCode: Number.NaN, ms };
      requestLogger(logger)(line);
      logger.info(line, REQUEST_COMPLETED);
      expect(sameTime(lines[0])).toBe(sameTime(lines[1]));
      expect(JSON.parse(lines[0]).statusCode).toBeNull();
    }
  });

  it('leaves the line to pino when the logger was made with options that change it', () => {
    const variants: Record<string, pino.LoggerOptions> = {
      redact: { redact: ['url'] },
      formatters: { formatters: { level: (label) => ({ level: label }) } },
      logFormatter: { formatters: { log: (object) => ({ ...object, extra: 1 }) } },
      mixin: { mixin: () => ({ extra: 1 }) },
      hooks: { hooks: { streamWrite: (text) => text.replace('GET', 'PUT') } },
      messageKey: { messageKey: 'message' },
      timestamp: { timestamp: pino.stdTimeFunctions.isoTime },
      serializer: { serializers: { url: () => 'hidden' } },
      msgPrefix: { msgPrefix: '[kyx] ' },
      nestedKey: { nestedKey: 'payload' },
    };
    const plain = capture('info');
    expect(writesDefaultLine(plain.logger)).toBe(true);
    for (const [name, options] of Object.entries(variants)) {
      const lines: string[] = [];
      const logger = pino({ level: 'info', ...options }, { write: (text: string) => void lines.push(text) });
      expect({ name, fast: writesDefaultLine(logger) }).toEqual({ name, fast: false });
      const line = { reqId: 'req_0AbC', method: 'GET', url: '/x', statusCode: 200, ms: 3 };
      requestLogger(logger)(line);
      logger.info(line, REQUEST_COMPLETED);
      expect({ name, line: lines[0].replace(/"?time"?:"?[^,"]+"?/, '') }).toEqual({ name, line: lines[1].replace(/"?time"?:"?[^,"]+"?/, '') });
    }
  });

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
    // the app's logger is one whose line is written here, not by pino
    expect(writesDefaultLine(app.log as pino.Logger)).toBe(true);
  });
});
