// Answers in the documented shapes of each register, for the local servers of the tests and the benchmark.

export function companyProfile(number: string, name: string, status = 'active') {
  return {
    company_name: name,
    company_number: number,
    company_status: status,
    type: 'ltd',
    date_of_creation: '2009-03-17',
    jurisdiction: 'england-wales',
    registered_office_address: {
      premises: '10',
      address_line_1: 'Example Road',
      locality: 'Leeds',
      postal_code: 'LS1 4AB',
      country: 'England',
    },
    sic_codes: ['62020'],
    has_insolvency_history: false,
    etag: 'e1',
    links: { self: `/company/${number}` },
  };
}

export function officerList() {
  return {
    kind: 'officer-list',
    active_count: 1,
    resigned_count: 1,
    total_results: 2,
    items_per_page: 100,
    start_index: 0,
    items: [
      {
        name: 'EXAMPLE, Jane Mary',
        officer_role: 'director',
        appointed_on: '2009-03-17',
        date_of_birth: { month: 6, year: 1975 },
        nationality: 'British',
        address: { premises: '10', address_line_1: 'Example Road', locality: 'Leeds' },
      },
      { name: 'FORMER, Fred', officer_role: 'secretary', appointed_on: '2009-03-17', resigned_on: '2012-01-01' },
    ],
  };
}

export function pscList(owner = { forename: 'John', surname: 'OWNER' }) {
  return {
    active_count: 1,
    ceased_count: 0,
    total_results: 1,
    items_per_page: 100,
    start_index: 0,
    items: [
      {
        kind: 'individual-person-with-significant-control',
        name: `Mr ${owner.forename} ${owner.surname}`,
        name_elements: { title: 'Mr', forename: owner.forename, surname: owner.surname },
        natures_of_control: ['ownership-of-shares-50-to-75-percent', 'voting-rights-50-to-75-percent'],
        date_of_birth: { month: 1, year: 1970 },
        notified_on: '2016-04-06',
      },
    ],
    links: { self: '/company/x/persons-with-significant-control' },
  };
}

export const companyNotFound = { errors: [{ error: 'company-profile-not-found', type: 'ch:service' }] };

export function leiRecord(lei: string, legalName: string, registeredAs: string, registrationStatus = 'ISSUED', jurisdiction = 'GB') {
  return {
    meta: { goldenCopy: { publishDate: '2026-11-22T08:00:00Z' } },
    data: {
      type: 'lei-records',
      id: lei,
      attributes: {
        lei,
        entity: {
          legalName: { name: legalName, language: 'en' },
          otherNames: [],
          legalAddress: { language: 'en', addressLines: ['10 Example Road'], city: 'Leeds', region: 'GB-LDS', country: 'GB', postalCode: 'LS1 4AB' },
          registeredAt: { id: 'RA000585', other: null },
          registeredAs,
          jurisdiction,
          category: 'GENERAL',
          legalForm: { id: 'H0PO', other: null },
          status: 'ACTIVE',
        },
        registration: {
          initialRegistrationDate: '2014-01-10T00:00:00Z',
          lastUpdateDate: '2026-01-10T00:00:00Z',
          status: registrationStatus,
          nextRenewalDate: '2027-01-10T00:00:00Z',
          managingLou: '213800WAVVOPS85N2205',
          corroborationLevel: 'FULLY_CORROBORATED',
        },
      },
      links: { self: `https://api.gleif.org/api/v1/lei-records/${lei}` },
    },
  };
}

export const leiNotFound = { errors: [{ status: '404', title: 'Not Found' }] };

export function vatAnswer(countryCode: string, vatNumber: string, valid: boolean, name = '---') {
  return {
    countryCode,
    vatNumber,
    requestDate: '2026-11-23T00:00:00.000Z',
    valid,
    requestIdentifier: '',
    name: valid ? name : '---',
    address: valid ? '10 EXAMPLE ROAD\nLEEDS' : '---',
    traderName: '---',
    traderStreet: '---',
    traderPostalCode: '---',
    traderCity: '---',
    traderCompanyType: '---',
    traderNameMatch: 'NOT_PROCESSED',
  };
}

export const viesError = (error: string) => ({ actionSucceed: false, errorWrappers: [{ error, message: null }] });

export function fcaFirm(frn: string, name: string, status: string, companiesHouseNumber: string) {
  return {
    Status: 'FSR-API-02-01-00',
    ResultInfo: { page: '1', per_page: '1', total_count: '1' },
    Message: 'Ok. Firm Found',
    Data: [
      {
        Name: `https://register.fca.org.uk/services/V0.1/Firm/${frn}/Names`,
        Permission: `https://register.fca.org.uk/services/V0.1/Firm/${frn}/Permissions`,
        'System Timestamp': '23/11/2026 00:10',
        'Exceptional Info Details': [],
        'Status Effective Date': '01/04/2014',
        'Client Money Permission': 'Control but not hold client money',
        'Sub-Status': '',
        'Companies House Number': companiesHouseNumber,
        'MLRs Status': '',
        Status: status,
        'Business Type': 'Regulated',
        'Organisation Name': name,
        FRN: frn,
      },
    ],
  };
}

export const fcaStatus = (Status: string, Message: string) => ({ Status, ResultInfo: null, Message, Data: null });
