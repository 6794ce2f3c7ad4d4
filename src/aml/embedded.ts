// An in-process screening as another check (KYC, KYB) embeds it in its own record: the outcome, each match's
// identity and evidence (not the listed entity's personal data) and the list versions it was screened against.
import type { ListVersion, ScreeningMatch } from './screen.ts';
import type { AmlService, InProcessScreening } from './service.ts';
import type { MonitorNames } from './monitoring.ts';

export type EmbeddedMatch = Pick<ScreeningMatch, 'entityId' | 'name' | 'matchedName' | 'score' | 'lists' | 'programs' | 'reasons'>;

export interface EmbeddedScreening {
  /** `unavailable` when no list is loaded: the embedding check must not treat it as clear. */
  status: 'clear' | 'potential_match' | 'unavailable';
  matches: EmbeddedMatch[];
  /** Absent when unavailable. */
  listsVersion?: string;
  lists?: ListVersion[];
}

export function embeddedScreening(result: InProcessScreening): EmbeddedScreening {
  if (result.status === 'unavailable') return { status: 'unavailable', matches: [] };
  return {
    status: result.status,
    matches: result.matches.map(({ entityId, name, matchedName, score, lists, programs, reasons }) => ({
      entityId,
      name,
      matchedName,
      score,
      lists,
      programs,
      reasons,
    })),
    listsVersion: result.listsVersion,
    lists: result.lists,
  };
}

/** How KYC and KYB enrol the names they screened: at the list versions now served, if the account enabled it. */
export function monitorNamesOf(aml: AmlService): MonitorNames {
  return (trx, check, parties) => aml.monitoring.enrolIfEnabled(trx, { ...check, listsVersion: aml.snapshot()?.listsVersion }, parties);
}
