// Renders the fixture KYC report in a process of its own and prints its SHA-256: the determinism test compares
// it with a render made in the test process.
import { createHash } from 'node:crypto';
import { catalogue, kycRecord, metaFor } from './fixtures.ts';

const pdf = await catalogue.render('RPT-001', kycRecord, metaFor(String(kycRecord.checkId), String(kycRecord.completedAt), 'sandbox'));
process.stdout.write(`${createHash('sha256').update(pdf).digest('hex')}\n`);
