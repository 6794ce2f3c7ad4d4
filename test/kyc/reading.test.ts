import { describe, expect, it } from 'vitest';
import { composeTd3, SPECIMEN_HOLDER } from '../../scripts/make-kyc-specimen.ts';
import { hammingDistance } from '../../src/kyc/hash.ts';
import { mrzDate, readMrz } from '../../src/kyc/mrz.ts';
import { compareNames, findNameInText } from '../../src/kyc/names.ts';
import { findAddress, findDates, latestPastDate } from '../../src/kyc/text-document.ts';

const NOW = new Date('2026-06-01T12:00:00Z');

describe('MRZ reading', () => {
  it('finds and verifies a TD3 MRZ amid other OCR lines', () => {
    const [l1, l2] = composeTd3(SPECIMEN_HOLDER);
    const reading = readMrz(`PASSPORT SPECIMEN\nSURNAME ERIKSSON\n${l1}\n${l2}\n`, NOW);
    expect(reading).toMatchObject({
      format: 'TD3',
      valid: true,
      invalidFields: [],
      documentCode: 'P',
      issuingState: 'SWE',
      documentNumber: 'XA4186275',
      lastName: 'ERIKSSON',
      firstName: 'ANNA MARIA',
      birthDate: '1974-08-12',
      expiryDate: '2034-03-15',
    });
  });

  it('tolerates OCR spacing, « for <, and a miscounted filler run', () => {
    const [l1, l2] = composeTd3(SPECIMEN_HOLDER);
    const noisy = `${l1.replace('<<<<<<', '<<<<<<<<').replace('<<', '«')}\n${l2.slice(0, 10)} ${l2.slice(10, 40)}${l2.slice(42)}`;
    const reading = readMrz(noisy, NOW);
    expect(reading?.valid).toBe(true);
    expect(reading?.lastName).toBe('ERIKSSON');
  });

  it('names every check digit that does not match', () => {
    const [l1, l2] = composeTd3(SPECIMEN_HOLDER);
    const badDocDigit = `${l2.slice(0, 9)}${(Number(l2[9]) + 1) % 10}${l2.slice(10)}`;
    const reading = readMrz(`${l1}\n${badDocDigit}`, NOW);
    expect(reading?.valid).toBe(false);
    expect(reading?.invalidFields).toEqual(expect.arrayContaining(['documentNumberCheckDigit', 'compositeCheckDigit']));
  });

  it('reads TD1 identity cards', () => {
    const td1 = ['I<UTOD23145890<1233<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];
    const reading = readMrz(td1.join('\n'), NOW);
    expect(reading?.format).toBe('TD1');
    expect(reading?.birthDate).toBe('1974-08-12');
    expect(reading?.expiryDate).toBe('2012-04-15');
  });

  it('returns null when there is no MRZ', () => {
    expect(readMrz('DRIVING LICENCE\n1. SMITH\n2. JOHN\n', NOW)).toBeNull();
  });

  it('expands two-digit years: births in the past, expiries around now', () => {
    expect(mrzDate('740812', 'birth', NOW)).toBe('1974-08-12');
    expect(mrzDate('100101', 'birth', NOW)).toBe('2010-01-01');
    expect(mrzDate('340315', 'expiry', NOW)).toBe('2034-03-15');
    expect(mrzDate('991231', 'expiry', NOW)).toBe('1999-12-31');
    expect(mrzDate('741332', 'birth', NOW)).toBeNull();
  });
});

describe('name comparison', () => {
  const mrzName = { firstName: 'ANNA MARIA', lastName: 'ERIKSSON' };

  it('matches regardless of case, accents and separators', () => {
    expect(compareNames({ firstName: 'Anna-Maria', lastName: 'Eriksson' }, mrzName).score).toBe(1);
    expect(compareNames({ firstName: 'anna maria', lastName: 'ériksson' }, mrzName).score).toBe(1);
  });

  it('accepts ICAO transliterations of national characters', () => {
    expect(compareNames({ firstName: 'Jürgen', lastName: 'Müller' }, { firstName: 'JUERGEN', lastName: 'MUELLER' }).score).toBe(1);
    expect(compareNames({ firstName: 'Jürgen', lastName: 'Müller' }, { firstName: 'JURGEN', lastName: 'MULLER' }).score).toBe(1);
    expect(compareNames({ firstName: 'Søren', lastName: 'Kierkegaard' }, { firstName: 'SOEREN', lastName: 'KIERKEGAARD' }).score).toBe(1);
  });

  it('romanises Cyrillic metadata before comparing', () => {
    const score = compareNames({ firstName: 'Анна Мария', lastName: 'Эрикссон' }, mrzName).score;
    expect(score).toBeGreaterThanOrEqual(0.85);
  });

  it('tolerates one OCR slip but not another person', () => {
    expect(compareNames({ firstName: 'Anna Maria', lastName: 'Eriksson' }, { firstName: 'ANNA MARIA', lastName: 'ERIKSS0N' }).score).toBeGreaterThan(0.85);
    expect(compareNames({ firstName: 'John', lastName: 'Smith' }, mrzName).score).toBeLessThan(0.5);
    expect(compareNames({ firstName: 'Anna Maria', lastName: 'Karlsson' }, mrzName).score).toBeLessThan(0.85);
  });

  it('accepts a name cut short by the MRZ line length', () => {
    const long = { firstName: 'Maximiliane Theodora', lastName: 'Oppenheimer-Wolkenstein' };
    expect(compareNames(long, { firstName: 'MAXIMILIANE THEO', lastName: 'OPPENHEIMER WOLKENSTEIN' }).score).toBeGreaterThanOrEqual(0.85);
  });

  it('finds a name in free text', () => {
    const text = 'Dear Ms Anna Maria Eriksson,\nyour statement for May';
    expect(findNameInText({ firstName: 'Anna Maria', lastName: 'Eriksson' }, text)).toBe(1);
    expect(findNameInText({ firstName: 'John', lastName: 'Smith' }, text)).toBeLessThan(0.7);
  });
});

describe('printed text', () => {
  it('finds dates in common formats and picks the latest past one', () => {
    const text = 'Issued 3 March 2026\nPeriod 2026-02-01 to 28/02/2026\nDue April 15, 2026\nNext reading 01.09.2026';
    const dates = findDates(text);
    expect(dates).toEqual(['2026-02-01', '2026-02-28', '2026-03-03', '2026-04-15', '2026-09-01']);
    expect(latestPastDate(dates, NOW)).toBe('2026-04-15');
  });

  it('finds an address line', () => {
    expect(findAddress('Statement\nStorgatan 12\n114 55 Stockholm')).toBe('Storgatan 12');
    expect(findAddress('Invoice\n221B Baker Street\nLondon NW1 6XE')).toBe('221B Baker Street');
    expect(findAddress('Invoice\nThank you for your custom')).toBeNull();
  });
});

describe('perceptual hash distance', () => {
  it('counts differing bits', () => {
    expect(hammingDistance('ffff000000000000', 'ffff000000000000')).toBe(0);
    expect(hammingDistance('ffff000000000000', 'fffe000000000001')).toBe(2);
    expect(() => hammingDistance('ff', 'ffff')).toThrow();
  });
});
