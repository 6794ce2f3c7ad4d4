import { describe, expect, it } from 'vitest';
import { unavailableService } from '../../src/http/errors.ts';

/** An error shaped as the pg driver raises a server's error: SQLSTATE code and severity. */
const postgresError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'FATAL' });

describe('which outage an error is', () => {
  it('takes a Postgres server out of connections, disk or memory for storage unavailable, like a restart', () => {
    expect(unavailableService(postgresError('53300', 'sorry, too many clients already'))).toBe('storage');
    expect(unavailableService(postgresError('53100', 'could not extend file: No space left on device'))).toBe('storage');
    expect(unavailableService(postgresError('57P01', 'terminating connection due to administrator command'))).toBe('storage');
    expect(unavailableService(postgresError('08006', 'connection failure'))).toBe('storage');
  });

  it('leaves a query fault a fault', () => {
    expect(unavailableService(postgresError('42P01', 'relation "x" does not exist'))).toBeNull();
    expect(unavailableService(postgresError('23505', 'duplicate key value violates unique constraint'))).toBeNull();
    // A code without the driver's severity is not a server's answer.
    expect(unavailableService(Object.assign(new Error('x'), { code: '53300' }))).toBeNull();
  });
});
